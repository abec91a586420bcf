import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Spec 000's success metrics (issue 24): a seeded population in two far-apart zones uses the app through
/// the API for ten days while the clock moves and the daily rollup runs as on a server; the operator's
/// report then equals what an oracle computes on its own from the raw events, on both databases.
struct Spec000MetricsTests {
    static let zone = "Europe/Paris"
    static let zones = ["Europe/Paris", "America/Los_Angeles"]
    static let days = 10

    /// Someone's habits: how likely they open the app on a day, check in (with a sentiment), claim the
    /// day's data (and when), look at the board; and when they signed up.
    struct Habit {
        var member: Member
        var signUpDay: Int
        var opens: Double
        var checksIn: Double
        var sentiment: Double
        var claims: Double
        var views: Double
    }

    static func unit(_ random: inout SeededRandom) -> Double { Double.random(in: 0..<1, using: &random) }

    @Test(arguments: Backend.available)
    func theOperatorsFiguresEqualAnOracleOverTheRawEvents(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "07:00")  // a Monday
            let first = LocalDate(iso: "2026-03-02")!
            var random = SeededRandom(seed: 24)
            let owner = try await Member.onboarded("owner@example.com", in: Self.zone, app: app)
            let circle = try await app.request(.post, "/api/fitcircles", token: try await owner.token, json: ["name": "Metrics", "metric": "steps"]).jsonObject()
            let (circleID, code) = (try #require(circle["id"] as? String), try #require(circle["joinCode"] as? String))
            _ = try await Operators(store: app.store).set(true, email: "owner@example.com")
            var people: [Habit] = []
            for day in 0..<Self.days {
                // 07:00 in Paris: a few sign up each of the first days, in either zone.
                try await world.run(until: first.adding(days: day).iso, "07:00")
                if day < 4 {
                    for index in 0..<4 {
                        let zone = Self.zones[index % 2]
                        let member = try await Member.onboarded("d\(day)p\(index)@example.com", in: zone, app: app)
                        #expect(try await app.request(.post, "/api/fitcircles/join", token: try await member.token, json: ["code": code]).status == .ok)
                        people.append(
                            Habit(member: member, signUpDay: day, opens: Self.unit(&random) * 0.8 + 0.2, checksIn: Self.unit(&random), sentiment: Self.unit(&random),
                                  claims: Self.unit(&random), views: Self.unit(&random)))
                    }
                }
                // Through the day, in Paris time: 09:00 and 20:00 (11:00 in Los Angeles the same date).
                for time in ["09:00", "20:00"] {
                    try await world.run(until: first.adding(days: day).iso, time)
                    for habit in people where Self.unit(&random) < habit.opens / 2 {
                        let token = try await habit.member.token
                        #expect(try await app.request(.get, "/api/goals/daily", token: token).status == .ok)
                        if Self.unit(&random) < habit.checksIn {
                            var body: [String: Any] = ["mood": 4, "energy": 3]
                            if Self.unit(&random) < habit.sentiment { body["sentiment"] = "ok" }
                            _ = try await app.request(.post, "/api/streaks/checkin", token: token, json: body)  // a second one answers 409
                        }
                        if Self.unit(&random) < habit.claims {
                            try await habit.member.sync(steps: 3_000 + Int(Self.unit(&random) * 9_000), "s\(day)-\(time)-\(habit.member.email)")
                            try await habit.member.claim(circleID)
                        }
                        if Self.unit(&random) < habit.views {
                            #expect(try await app.request(.get, "/api/fitcircles/\(circleID)/leaderboard", token: token).status == .ok)
                        }
                    }
                }
            }
            // The last day is rolled up at 12:30 UTC the day after, and again the day after that.
            try await world.run(until: first.adding(days: Self.days + 1).iso, "14:00")

            let last = first.adding(days: Self.days - 1)
            let report = try await app.request(.get, "/api/admin/metrics?from=\(first.iso)&to=\(last.iso)", token: try await owner.token)
            #expect(report.status == .ok, "\(report.text)")
            let series = try #require(try report.jsonObject()["metrics"] as? [[String: Any]])
            func reported(_ id: String) -> [String: (numerator: Double, denominator: Double)] {
                let points = series.first { $0["id"] as? String == id }?["points"] as? [[String: Any]] ?? []
                return Dictionary(uniqueKeysWithValues: points.map { ($0["period"] as! String, ($0["numerator"] as! Double, $0["denominator"] as! Double)) })
            }

            // The oracle: the raw events and accounts, read whole, counted here by its own code.
            let (stored, everyone) = try await app.store.read { tx in
                (try await tx.events.all(limit: 100_000), try await tx.users(withRole: .member) + tx.users(withRole: .operator))
            }
            let events = stored.map { (user: $0.userID.rawValue, name: $0.name, source: $0.source.rawValue, day: $0.localDate.iso, properties: $0.properties) }
            let accounts = everyone.map { (id: $0.id.rawValue, day: $0.localDate(at: $0.createdAt).iso) }
            let activeNames: Set = ["app_opened", "goal_viewed", "leaderboard_viewed", "checkin_completed", "data_submitted", "notification_opened", "notification_acted", "preference_changed"]
            func active(on day: String) -> Set<String> {
                Set(events.filter { $0.day == day && ($0.source == "app" || activeNames.contains($0.name)) }.map(\.user))
            }
            func users(_ name: String, on day: String, where condition: ([String: EventValue]) -> Bool = { _ in true }) -> Set<String> {
                Set(events.filter { $0.name == name && $0.day == day && condition($0.properties) }.map(\.user))
            }
            var checked = 0
            for offset in 0..<Self.days {
                let day = first.adding(days: offset).iso
                let dau = active(on: day)
                #expect(reported("dau")[day]?.numerator == Double(dau.count), "dau \(day)")
                #expect(reported("dau")[day]?.denominator == Double(accounts.filter { $0.day <= day }.count), "accounts \(day)")
                let week = (0..<7).reduce(into: Set<String>()) { $0.formUnion(active(on: first.adding(days: offset - $1).iso)) }
                #expect(reported("wau")[day]?.numerator == Double(week.count), "wau \(day)")
                let checkIns = users("checkin_completed", on: day)
                #expect(reported("checkin_completion")[day].map { [$0.numerator, $0.denominator] } == [Double(checkIns.intersection(dau).count), Double(dau.count)], "check-ins \(day)")
                let sentiment = users("checkin_completed", on: day) { $0["sentiment"] == .boolean(true) }
                #expect(reported("checkin_sentiment")[day]?.numerator == Double(sentiment.count), "sentiment \(day)")
                let claims = users("data_submitted", on: day)
                #expect(reported("data_submission")[day]?.numerator == Double(claims.intersection(dau).count), "claims \(day)")
                let cohort = Set(accounts.filter { $0.day == day }.map(\.id))
                if offset + 1 < Self.days {
                    let next = active(on: first.adding(days: offset + 1).iso)
                    #expect(reported("d1_retention")[day].map { [$0.numerator, $0.denominator] } == [Double(cohort.intersection(next).count), Double(cohort.count)], "D1 \(day)")
                }
                if offset + 7 < Self.days {
                    let seventh = active(on: first.adding(days: offset + 7).iso)
                    #expect(reported("d7_retention")[day].map { [$0.numerator, $0.denominator] } == [Double(cohort.intersection(seventh).count), Double(cohort.count)], "D7 \(day)")
                }
                checked += dau.count
            }
            #expect(checked > 50, "the population did too little to test anything: \(checked)")
            // Sunday ends the week: the circle's members who looked at a board that week.
            let sunday = first.adding(days: 6).iso
            let viewers = (0..<7).reduce(into: Set<String>()) { $0.formUnion(users("leaderboard_viewed", on: first.adding(days: $1).iso)) }
            #expect(reported("leaderboard_view_rate")[sunday]?.numerator == Double(viewers.count))
            #expect(reported("leaderboard_view_rate")[sunday]?.denominator == Double(people.count + 1))

            // The same report by week adds the days up, and as CSV has a line per metric and period.
            let weekly = try await app.request(.get, "/api/admin/metrics?from=\(first.iso)&to=\(last.iso)&granularity=week", token: try await owner.token)
            let weeks = try #require(try weekly.jsonObject()["metrics"] as? [[String: Any]]).first { $0["id"] as? String == "checkin_completion" }?["points"] as? [[String: Any]]
            let firstWeek = (0..<7).map { reported("checkin_completion")[first.adding(days: $0).iso]?.numerator ?? 0 }.reduce(0, +)
            #expect(weeks?.first?["numerator"] as? Double == firstWeek)
            let csv = try await app.request(.get, "/api/admin/metrics?from=\(first.iso)&to=\(last.iso)&format=csv", token: try await owner.token)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(csv.text.split(separator: "\r\n").count == 1 + MetricCatalog.all.count * Self.days)
            // Only operators read it.
            #expect(try await app.request(.get, "/api/admin/metrics", token: try await people[0].member.token).status == .forbidden)
        }
    }
}
