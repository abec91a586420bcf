import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import Testing

/// Issue 48: each success metric of spec 000 the population test does not draw, read against its wording
/// with a script small enough to count by hand. Four people sign up on a Monday in Paris and each does a
/// few deliberate things; every expected figure below is counted from the script, never read back from
/// the server's events.
///
/// - Ann opens the app twice a day, checks in and walks 30,000 steps every day for eight days (every
///   daily and weekly goal met), has a push device, and changes a preference on her 8th day.
/// - Ben checks in Monday to Friday, misses Saturday (his weekly freeze covers it), checks in Sunday and
///   Monday, and opens the app when he checks in; on his 31st day he switches every channel off.
/// - Cat checks in on Monday only (a freeze covers Tuesday; Wednesday ends it) and changes her reminder
///   time on Wednesday.
/// - Dan checks in Monday to Sunday, switches every channel off on Thursday, and on his 8th day looks at
///   his goals without checking in: his 7-day streak still stands that day.
struct Spec000MetricDefinitionsTests {
    static let zone = "Europe/Paris"

    @Test(arguments: Backend.available)
    func everyMetricEqualsWhatTheScriptedPeopleDid(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            // The operator signs up the day before: the Monday cohort is the four.
            world.start(at: "2026-03-01", "12:00")
            _ = try await Member.onboarded("op@example.com", in: Self.zone, app: app)
            _ = try await Operators(store: app.store).set(true, email: "op@example.com")
            try await world.run(until: "2026-03-02", "07:00", step: 3_600)
            var people: [String: Member] = [:]
            for name in ["ann", "ben", "cat", "dan"] {
                people[name] = try await Member.onboarded(
                    "\(name)@example.com",
                    named: name.capitalized,
                    in: Self.zone,
                    app: app
                )
            }
            let (ann, ben, cat, dan) = (people["ann"]!, people["ben"]!, people["cat"]!, people["dan"]!)
            let device = try await app.request(
                .post,
                "/api/notifications/register",
                token: try await ann.token,
                json: ["platform": "ios", "token": "ann-phone"]
            )
            #expect(device.status == .created, "\(device.text)")
            func preferences(_ member: Member, _ body: [String: Any]) async throws {
                let saved = try await app.request(
                    .put,
                    "/api/notifications/preferences",
                    token: try await member.token,
                    json: body
                )
                #expect(saved.status == .ok, "\(saved.text)")
            }
            let allOff: [String: Any] = ["push": false, "email": false, "inApp": false]

            let monday = LocalDate(iso: "2026-03-02")!
            for day in 0..<8 {
                let date = monday.adding(days: day).iso
                try await world.run(until: date, "10:00", step: 3_600)
                try await ann.record("ann-open-\(day)-am", .appOpen)
                try await app.checkIn(token: try await ann.token)
                try await ann.sync(steps: 30_000, "ann-steps-\(day)")
                if day != 5 {
                    try await ben.record("ben-open-\(day)", .appOpen)
                    try await app.checkIn(token: try await ben.token)
                }
                if day == 0 { try await app.checkIn(token: try await cat.token) }
                if day == 2 { try await preferences(cat, ["reminderTime": "19:30"]) }
                if day < 7 { try await app.checkIn(token: try await dan.token) }
                if day == 3 { try await preferences(dan, allOff) }
                if day == 7 {
                    #expect(try await app.request(.get, "/api/goals/daily", token: try await dan.token).status == .ok)
                    let streak = try await app.json("/api/streaks/current", token: try await dan.token)
                    #expect(streak["current"] as? Int == 7, "\(streak)")
                    try await preferences(ann, ["reminderTime": "21:00"])
                }
                try await world.run(until: date, "20:00", step: 3_600)
                try await ann.record("ann-open-\(day)-pm", .appOpen)
            }
            // Ben's 31st day is one past his first 30.
            try await world.run(until: "2026-04-01", "10:00", step: 4 * 3_600)
            try await preferences(ben, allOff)
            try await world.run(until: "2026-04-02", "15:00", step: 4 * 3_600)

            let report = try await app.request(
                .get,
                "/api/admin/metrics?from=2026-03-02&to=2026-03-09",
                token: try await Member(app: app, email: "op@example.com").token
            )
            #expect(report.status == .ok, "\(report.text)")
            let series = try #require(try report.jsonObject()["metrics"] as? [[String: Any]])
            func figure(_ id: String, _ day: String) -> [Double]? {
                let points = series.first { $0["id"] as? String == id }?["points"] as? [[String: Any]] ?? []
                return points.first { $0["period"] as? String == day }.map {
                    [$0["numerator"] as! Double, $0["denominator"] as! Double]
                }
            }

            // Sunday: Ann (7), Ben (6: the frozen Saturday adds nothing) and Dan (7) were active; Cat was not.
            #expect(figure("streak_7_share", "2026-03-08") == [2, 3])
            // Monday: Ann 8, Ben 7, and Dan, who has not checked in, stands at the 7 he carried in.
            #expect(figure("streak_7_share", "2026-03-09") == [3, 3])
            #expect(figure("streak_30_share", "2026-03-09") == [0, 3])
            // The month's active users are the four; a freeze covered Cat (Tuesday), then Ben (Saturday),
            // then Dan (Monday, a new week's freeze).
            for (day, frozen) in [
                ("2026-03-02", 0.0), ("2026-03-03", 1), ("2026-03-07", 2), ("2026-03-08", 2), ("2026-03-09", 3),
            ] {
                #expect(figure("freeze_usage", day) == [frozen, 4], "freeze usage \(day)")
            }
            // Everyone has the day's goals (a check-in and steps); only Ann meets them all — the operator
            // included, five people.
            for day in 1..<7 {
                #expect(
                    figure("daily_goal_completion", monday.adding(days: day).iso) == [1, 5],
                    "daily goals \(monday.adding(days: day).iso)"
                )
            }
            #expect(figure("weekly_goal_completion", "2026-03-08") == [1, 5])
            // Ann's 14 app opens and Ben's 6 in the week, over the four active in it.
            #expect(figure("sessions_per_user", "2026-03-08") == [20, 4])
            // Of the Monday cohort, Cat and Dan changed a preference within their first 7 days (Ann on her
            // 8th); Dan switched everything off within 30 (Ben on his 31st).
            #expect(figure("preference_customisation", "2026-03-02") == [2, 4])
            #expect(figure("opt_out", "2026-03-02") == [1, 4])
            // One person of the five has a push device.
            #expect(figure("push_opt_in", "2026-03-05") == [1, 5])
        }
    }
}
