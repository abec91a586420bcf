import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleJobs
import FitCircleTesting
import Foundation
import Logging
import Testing

/// Issue 48: the success metrics count what people did, never what the server did for them. The oracle is
/// what this test's people were made to do, counted here, not the stored events read back.
struct MetricsFidelityTests {
    /// "Active" counted everyone the server planned goals for: the midnight planning job and the reminders'
    /// triggers read goals the way a person does and recorded `goal_viewed` for every account, so DAU was
    /// every account and D1 100 %. Ten people sign up; the next day the jobs run for all of them, three
    /// look at their goals, one checks in, one looks at a board: DAU is 5 and D1 5 of 10.
    @Test(arguments: Backend.available)
    func dauAndD1CountWhatPeopleDidNotTheServersOwnReads(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let signUpDay = LocalDate(app.clock.now, in: .gmt)
            for index in 0..<10 { _ = try await app.onboardedUser("person\(index)@example.com", timeZone: "UTC") }
            let nextDay = signUpDay.adding(days: 1)
            // Midnight's planning, the morning's reminders: the server reads every person's goals.
            try await app.passTime(until: nextDay.instant(at: LocalTime.at(10, 0), in: .gmt) ?? app.clock.now)
            // Signing in again (the access tokens of yesterday have expired) is not using the app either.
            var tokens: [String] = []
            for index in 0..<10 {
                tokens.append(
                    try await app.devSignIn("person\(index)@example.com").accessToken
                )
            }
            var used: Set<Int> = []
            for index in [0, 1, 2] {
                #expect(try await app.request(.get, "/api/goals/daily", token: tokens[index]).status == .ok)
                used.insert(index)
            }
            let checkIn = try await app.request(
                .post,
                "/api/streaks/checkin",
                token: tokens[3],
                json: ["mood": 4, "energy": 3]
            )
            #expect(checkIn.status == .created, "\(checkIn.text)")
            used.insert(3)
            let circle = try await app.request(
                .post,
                "/api/fitcircles",
                token: tokens[4],
                json: ["name": "Board", "metric": "steps"]
            ).decoded(as: Components.Schemas.FitCircle.self)
            let id = circle.id
            #expect(try await app.request(.get, "/api/fitcircles/\(id)/leaderboard", token: tokens[4]).status == .ok)
            used.insert(4)
            // The evening's reminders and the night's planning too.
            try await app.passTime(
                until: nextDay.adding(days: 1).instant(at: LocalTime.at(6, 0), in: .gmt) ?? app.clock.now
            )

            let rows = try await app.engine.metrics.rollUp(nextDay)
            func row(_ metric: String) -> MetricRow? { rows.first { $0.metric == metric } }
            #expect(row("dau")?.numerator == Double(used.count), "\(String(describing: row("dau")))")
            #expect(
                row("d1_retention").map { ($0.numerator, $0.denominator) } ?? (0, 0) == (Double(used.count), 10),
                "\(String(describing: row("d1_retention")))"
            )
            // Nobody was active on the sign-up day (signing up and onboarding are not using the app).
            let first = try await app.engine.metrics.rollUp(signUpDay)
            #expect(first.first { $0.metric == "dau" }?.numerator == 0)
        }
    }
}
