import FitCircleClient
import FitCircleTesting
import Foundation
import Testing

/// Spec 000, Feature 3's board displays: "Daily: Top 10 + user's position"; "Weekly: Full FitCircle roster
/// (up to 50 members)" (monthly and all-time alike).
struct Spec000BoardTests {
    static let zone = "Europe/Paris"

    @Test(arguments: Backend.available)
    func f3_theDailyBoardIsTheTop10AndTheCallersPlace_theWeeklyBoardTheWholeRoster(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-03", "09:00")
            var members: [Member] = []
            for index in 0..<13 {
                members.append(try await Member.onboarded("m\(index)@example.com", in: Self.zone, app: app))
            }
            let circle = try await app.api(try await members[0].token).createFitCircle(
                body: .json(.init(name: "Thirteen", metric: .steps))
            ).created.body.json
            let id = circle.id
            for member in members.dropFirst() {
                let joined = try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await member.token,
                    json: ["code": try #require(circle.joinCode)]
                )
                #expect(joined.status == .ok, "\(joined.text)")
            }
            // Twelve claim (m0 the most steps, m11 the fewest); m12 never does.
            for (index, member) in members.prefix(12).enumerated() {
                try await member.sync(steps: 12_000 - index * 500, "s\(index)")
                try await member.claim(id)
            }
            func board(_ period: Components.Schemas.BoardPeriod, for member: Member) async throws
                -> Components.Schemas.Leaderboard
            {
                let api = app.api(try await member.token)
                return try await api.getFitCircleLeaderboard(path: .init(id: id), query: .init(period: period)).ok.body
                    .json
            }
            let daily = try await board(.daily, for: members[11])
            #expect(daily.layout == .topAndOwn)
            #expect(daily.rows.compactMap(\.rank) == Array(1...10) + [12])
            #expect(daily.rows.last?.isCaller == true)
            // Someone yet to claim sees the top 10 and their own row, unranked.
            let newcomer = try await board(.daily, for: members[12]).rows
            #expect(newcomer.count == 11 && newcomer.last?.rank == nil && newcomer.last?.isCaller == true)

            for period in [Components.Schemas.BoardPeriod.weekly, .monthly, .allTime] {
                let full = try await board(period, for: members[11])
                #expect(full.layout == .full, "\(period)")
                #expect(full.rows.count == 13, "\(period)")  // the whole roster, m12 last
            }
        }
    }
}
