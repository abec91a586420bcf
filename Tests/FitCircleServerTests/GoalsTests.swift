import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Daily and weekly goals through the HTTP API.
struct GoalsTests {
    static let day: TimeInterval = 86_400

    static func token(_ app: TestApp, _ email: String = "ana@example.com") async throws -> String {
        try await app.devSignIn(email)["accessToken"] as! String
    }

    static func get(_ app: TestApp, _ path: String, _ email: String = "ana@example.com") async throws -> [String: Any] {
        let response = try await app.request(.get, path, token: try await Self.token(app, email))
        #expect(response.status == .ok, "\(path): \(response.text)")
        return try response.jsonObject()
    }

    static func goal(_ period: [String: Any], _ type: String) -> [String: Any]? {
        (period["goals"] as? [[String: Any]])?.first { $0["type"] as? String == type }
    }

    static func sync(_ app: TestApp, steps: Int) async throws {
        let response = try await app.request(
            .post,
            "/api/tracking/daily",
            token: try await Self.token(app),
            json: [
                "steps": steps, "source": "healthkit", "occurredAt": ISO8601DateFormatter().string(from: app.clock.now),
            ]
        )
        #expect(response.status == .ok, "\(response.text)")
    }

    /// Spec 000, Flow 1: the default step goal during the first week, then the user's average + 10 % on day 8.
    @Test(arguments: Backend.available)
    func theStepGoalMovesFromTheDefaultToTheAveragePlusTenPercentOnDayEight(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            // Day 5 has no data: it does not count towards the average.
            let steps = [6000, 7200, 8100, 6900, 0, 7700, 8000]
            for (index, count) in steps.enumerated() {
                let goals = try await Self.get(app, "/api/goals/daily")
                let stepGoal = try #require(Self.goal(goals, "steps"))
                #expect(stepGoal["target"] as? Double == 7000, "day \(index + 1)")
                #expect((stepGoal["basis"] as? String)?.hasPrefix("default for a moderate baseline") == true)
                #expect(Self.goal(goals, "check_in")?["target"] as? Double == 1)
                #expect(Self.goal(goals, "weight") == nil)
                if count > 0 { try await Self.sync(app, steps: count) }
                app.clock.advance(by: Self.day)
            }
            let day8 = try #require(Self.goal(try await Self.get(app, "/api/goals/daily"), "steps"))
            // (6000 + 7200 + 8100 + 6900 + 7700 + 8000) / 6 = 7316.7; + 10 % = 8048.3; to the nearest 100.
            #expect(day8["target"] as? Double == 8000)
            #expect(day8["basis"] as? String == "average of 6 days with steps (7317) + 10 %, at most 15000")
            #expect(day8["period"] as? String == "2026-03-09")

            let history = try await Self.get(app, "/api/goals/daily/history?days=8")
            let periods = try #require(history["periods"] as? [[String: Any]])
            #expect(periods.count == 8)
            // Day 3 (8,100 steps) met its 7,000 goal; day 5 did not.
            let completed = periods.reversed().map { Self.goal($0, "steps")?["completed"] as? Bool }
            #expect(completed == [false, true, true, false, false, true, true, false])
        }
    }

    @Test(arguments: Backend.available)
    func progressFollowsTheLedgerAndAGoalClosesWhenMet(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            let goals = try await Self.get(app, "/api/goals/daily")
            let steps = try #require(Self.goal(goals, "steps"))
            let id = try #require(steps["id"] as? String)
            #expect(steps["actual"] as? Double == 0)

            // Manual progress is recorded in the ledger; the day and the goal follow.
            let manual = try await app.request(
                .put,
                "/api/goals/daily/\(id)/progress",
                token: try await Self.token(app),
                json: ["value": 3000]
            )
            #expect(manual.status == .ok, "\(manual.text)")
            #expect(try manual.jsonObject()["actual"] as? Double == 3000)
            #expect(try manual.jsonObject()["percent"] as? Int == 42)
            let lower = try await app.request(
                .put,
                "/api/goals/daily/\(id)/progress",
                token: try await Self.token(app),
                json: ["value": 2000]
            )
            #expect(lower.status == .unprocessableContent)
            #expect((try lower.jsonObject()["errors"] as? [[String: Any]])?.first?["field"] as? String == "value")

            let absurd = try await app.request(
                .put,
                "/api/goals/daily/\(id)/progress",
                token: try await Self.token(app),
                json: ["value": 1e12]
            )
            #expect(absurd.status == .unprocessableContent)

            // A health-data sync above the manual count wins (the profile combines them by maximum).
            try await Self.sync(app, steps: 7400)
            let met = try #require(Self.goal(try await Self.get(app, "/api/goals/daily"), "steps"))
            #expect(met["actual"] as? Double == 7400)
            #expect(met["completed"] as? Bool == true)
            #expect(met["percent"] as? Int == 100)

            let checkInGoal = try #require(Self.goal(goals, "check_in")?["id"] as? String)
            let refused = try await app.request(
                .put,
                "/api/goals/daily/\(checkInGoal)/progress",
                token: try await Self.token(app),
                json: ["value": 1]
            )
            #expect(refused.status == .conflict)
            _ = try await app.request(
                .post,
                "/api/streaks/checkin",
                token: try await Self.token(app),
                json: ["mood": 3, "energy": 3]
            )
            #expect(Self.goal(try await Self.get(app, "/api/goals/daily"), "check_in")?["completed"] as? Bool == true)

            // The next day's check-in acknowledges this day: 7,400 steps of a 7,000 goal.
            app.clock.advance(by: Self.day)
            let next = try await app.request(
                .post,
                "/api/streaks/checkin",
                token: try await Self.token(app),
                json: ["mood": 3, "energy": 3]
            )
            let acknowledged = try #require(try next.jsonObject()["previousDay"] as? [String: Any])
            #expect(acknowledged["steps"] as? Int == 7400)
            #expect(acknowledged["goalPercent"] as? Int == 105)

            let unknown = try await app.request(
                .put,
                "/api/goals/daily/nope/progress",
                token: try await Self.token(app),
                json: ["value": 1]
            )
            #expect(unknown.status == .notFound)
        }
    }

    @Test(arguments: Backend.available)
    func weeklyGoalsHaveADailyBreakdownFromTheProfilesWeekStart(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            // Wednesday 4 March: the fitcircle week started on Monday 2 March.
            app.clock.advance(by: 2 * Self.day)
            try await Self.sync(app, steps: 4200)
            let week = try await Self.get(app, "/api/goals/weekly")
            #expect(week["start"] as? String == "2026-03-02")
            let steps = try #require(Self.goal(week, "steps"))
            #expect(steps["target"] as? Double == 50_000)  // spec 000 F2: the default while the daily goal is one too
            #expect(steps["actual"] as? Double == 4200)
            let breakdown = try #require(steps["breakdown"] as? [[String: Any]])
            #expect(breakdown.map { $0["date"] as? String } == (2...8).map { String(format: "2026-03-%02d", $0) })
            #expect(breakdown.map { $0["value"] as? Double } == [0, 0, 4200, 0, 0, 0, 0])
            #expect(Self.goal(week, "check_in")?["target"] as? Double == 7)
            #expect(Self.goal(week, "active_days")?["actual"] as? Double == 1)
            let history = try await Self.get(app, "/api/goals/weekly/history?weeks=4")
            #expect((history["periods"] as? [Any])?.count == 1)
            let bad = try await app.request(.get, "/api/goals/weekly/history?weeks=0", token: try await Self.token(app))
            #expect(bad.status == .unprocessableContent)
        }
    }

    /// Spec 001: the push-up week runs Monday to Sunday; on Sunday the popup shows the week, once, and its
    /// choice sets the daily goal at once while the week keeps the target it was reached against.
    @Test(arguments: Backend.available)
    func thePushupWeeklySummaryIsShownOnceAndItsChoiceSetsTheDailyGoal(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let daily = try await Self.get(app, "/api/goals/daily")
            #expect(Self.goal(daily, "pushups")?["target"] as? Double == 50)
            let week = try await Self.get(app, "/api/goals/weekly")
            #expect(week["start"] as? String == "2026-03-02")
            #expect(Self.goal(week, "pushups")?["target"] as? Double == 250)
            // 60 push-ups a day, Monday to Friday: 300 against 250.
            for day in 0..<5 {
                let response = try await app.request(
                    .post,
                    "/api/activities",
                    token: try await Self.token(app),
                    json: [
                        "clientEventId": "p\(day)", "type": "workout",
                        "occurredAt": ISO8601DateFormatter().string(from: app.clock.now),
                        "workout": ["type": "pushups", "durationSeconds": 300, "reps": 60, "series": 3],
                    ]
                )
                #expect(response.status == .created, "\(response.text)")
                app.clock.advance(by: Self.day)
            }
            // Sunday 8 March: the week of 2–8 March.
            app.clock.advance(by: Self.day)
            let summary = try await Self.get(app, "/api/goals/weekly/summary")
            #expect(summary["weekStart"] as? String == "2026-03-02")
            #expect(summary["reps"] as? Int == 300)
            #expect(summary["excessReps"] as? Int == 0)
            #expect(summary["percent"] as? Int == 120)
            #expect(summary["reached"] as? Bool == true)
            #expect(summary["alreadySeen"] as? Bool == false)
            let options = try #require(summary["options"] as? [[String: Any]])
            #expect(options.map { $0["dailyGoal"] as? Int } == [50, 55, 60])
            #expect(try await Self.get(app, "/api/goals/weekly/summary")["alreadySeen"] as? Bool == true)

            let chosen = try await app.request(
                .post,
                "/api/goals/weekly/summary/choice",
                token: try await Self.token(app),
                json: ["choice": "increase_10"]
            )
            #expect(chosen.status == .ok, "\(chosen.text)")
            #expect((try chosen.jsonObject()["settings"] as? [String: Any])?["dailyGoal"] as? Int == 55)
            #expect((try chosen.jsonObject()["summary"] as? [String: Any])?["reached"] as? Bool == true)
            let again = try await app.request(
                .post,
                "/api/goals/weekly/summary/choice",
                token: try await Self.token(app),
                json: ["choice": "increase_20"]
            )
            #expect(again.status == .conflict)
            #expect(try await Self.get(app, "/api/settings/training")["dailyGoal"] as? Int == 55)
            #expect(Self.goal(try await Self.get(app, "/api/goals/daily"), "pushups")?["target"] as? Double == 55)
            #expect(Self.goal(try await Self.get(app, "/api/goals/weekly"), "pushups")?["target"] as? Double == 250)
            // Monday: the new week's target follows the new goal; the popup was seen.
            app.clock.advance(by: Self.day)
            #expect(Self.goal(try await Self.get(app, "/api/goals/weekly"), "pushups")?["target"] as? Double == 275)
            let monday = try await Self.get(app, "/api/goals/weekly/summary")
            #expect(monday["weekStart"] as? String == "2026-03-02" && monday["alreadySeen"] as? Bool == true)
        }
    }

    @Test(arguments: Backend.available)
    func aWeekShortOfItsTargetOffersNoChoice(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            _ = try await Self.token(app)
            app.clock.advance(by: 6 * Self.day)
            let summary = try await Self.get(app, "/api/goals/weekly/summary")
            #expect(summary["reached"] as? Bool == false)
            #expect((summary["options"] as? [Any])?.isEmpty == true)
            let refused = try await app.request(
                .post,
                "/api/goals/weekly/summary/choice",
                token: try await Self.token(app),
                json: ["choice": "maintain"]
            )
            #expect(refused.status == .conflict)
        }
    }
}
