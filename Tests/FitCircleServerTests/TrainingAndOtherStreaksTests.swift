import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Onboarding recommendations and training settings (spec 001), and the push-up and app-open streaks.
struct TrainingAndOtherStreaksTests {
    static let day: TimeInterval = 86_400

    static func token(_ app: TestApp) async throws -> String {
        try await app.devSignIn("ana@example.com").accessToken
    }

    @Test(
        arguments: Backend.available,
        [
            (8, "beginner", 1, 60), (15, "intermediate", 2, 45), (30, "advanced", 5, 30), (50, "advanced", 10, 30),
        ] as [(Int, String, Int, Int)]
    )
    func theAssessmentRecommendsWithoutSaving(_ backend: Backend, answer: (Int, String, Int, Int)) async throws {
        let (capacity, level, series, recovery) = answer
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let token = try await Self.token(app)
            let response = try await app.request(
                .post,
                "/api/onboarding/assessment",
                token: token,
                json: ["level": level, "capacity": capacity, "workoutDaysPerWeek": 5]
            )
            #expect(response.status == .ok, "\(response.text)")
            let recommended = try response.jsonObject()
            #expect(recommended["startingSeries"] as? Int == series)
            #expect(recommended["recoverySeconds"] as? Int == recovery)
            #expect(recommended["dailyGoal"] as? Int == Int((Double(capacity) * 2.5 / 5).rounded()) * 5)
            #expect(recommended["saved"] as? Bool == false)
            #expect(
                try await app.request(.get, "/api/settings/training", token: token).jsonObject()["saved"] as? Bool
                    == false
            )
        }
    }

    @Test(arguments: Backend.available)
    func confirmingSavesAndSkippingSavesTheDefaults(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let token = try await Self.token(app)
            let confirmed = try await app.request(
                .post,
                "/api/onboarding/confirm",
                token: token,
                json: [
                    "level": "beginner", "capacity": 12, "workoutDaysPerWeek": 3, "dailyGoal": 40,
                    "recoverySeconds": 75,
                ]
            )
            #expect(confirmed.status == .ok, "\(confirmed.text)")
            let settings = try await app.request(.get, "/api/settings/training", token: token).jsonObject()
            #expect(settings["dailyGoal"] as? Int == 40)
            #expect(settings["weeklyGoal"] as? Int == 200)
            #expect(settings["startingSeries"] as? Int == 2)
            #expect(settings["recoverySeconds"] as? Int == 75)
            #expect(settings["saved"] as? Bool == true)

            let skipped = try await app.request(.post, "/api/onboarding/confirm", token: token, json: ["skipped": true])
                .jsonObject()
            #expect(skipped["level"] as? String == "intermediate")
            #expect(skipped["capacity"] as? Int == 20)
            #expect(skipped["workoutDaysPerWeek"] as? Int == 5)
            #expect(skipped["dailyGoal"] as? Int == 50)

            let absurd = try await app.request(
                .post,
                "/api/onboarding/assessment",
                token: token,
                json: ["level": "beginner", "capacity": 1_000_000_000_000, "workoutDaysPerWeek": 0]
            )
            #expect(absurd.status == .unprocessableContent)
            let absurdFields = (try absurd.jsonObject()["errors"] as? [[String: Any]])?.compactMap {
                $0["field"] as? String
            }
            #expect(absurdFields == ["capacity", "workoutDaysPerWeek"])

            let incomplete = try await app.request(
                .post,
                "/api/onboarding/confirm",
                token: token,
                json: ["capacity": 12]
            )
            #expect(incomplete.status == .unprocessableContent)
            let fields = (try incomplete.jsonObject()["errors"] as? [[String: Any]])?.compactMap {
                $0["field"] as? String
            }
            #expect(fields == ["level", "workoutDaysPerWeek"])
        }
    }

    @Test(arguments: Backend.available)
    func settingsAreEditedWithTheSameChecksAndABadValueChangesNothing(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let token = try await Self.token(app)
            let valid: [String: Any] = [
                "level": "advanced", "capacity": 45, "workoutDaysPerWeek": 6, "dailyGoal": 120, "startingSeries": 10,
                "recoverySeconds": 30,
            ]
            #expect(try await app.request(.put, "/api/settings/training", token: token, json: valid).status == .ok)
            var invalid = valid
            invalid["workoutDaysPerWeek"] = 8
            invalid["recoverySeconds"] = 5
            let refused = try await app.request(.put, "/api/settings/training", token: token, json: invalid)
            #expect(refused.status == .unprocessableContent)
            let fields = (try refused.jsonObject()["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
            #expect(fields == ["workoutDaysPerWeek", "recoverySeconds"])
            #expect(
                try await app.request(.get, "/api/settings/training", token: token).jsonObject()["workoutDaysPerWeek"]
                    as? Int == 6
            )
        }
    }

    static func pushups(_ app: TestApp, _ id: String, reps: Int) async throws {
        let response = try await app.request(
            .post,
            "/api/activities",
            token: try await Self.token(app),
            json: [
                "clientEventId": id, "type": "workout",
                "occurredAt": ISO8601DateFormatter().string(from: app.clock.now),
                "workout": ["type": "pushups", "durationSeconds": 120, "reps": reps],
            ]
        )
        #expect(response.status == .created, "\(response.text)")
    }

    /// Spec 001, WEEKLY-05 and CHAL-03: weeks from Monday to Sunday; only an empty week resets; one freeze a month,
    /// spent automatically on a week short of its goal.
    @Test(arguments: Backend.available)
    func thePushupStreakCountsWeeksAndSpendsTheMonthlyFreezeOnAShortWeek(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            // Week of 2 March: 260 push-ups (goal 250). Week of 9 March: 100. Week of 16 March: 50.
            // Week of 23 March: none. Each posted on the Monday of its week.
            for (week, reps) in [(0, 260), (1, 100), (2, 50), (3, 0)] {
                if reps > 0 { try await Self.pushups(app, "w\(week)", reps: reps) }
                app.clock.advance(by: 7 * Self.day)
            }
            // Monday 30 March.
            let streak = try await app.request(.get, "/api/streaks/current", token: try await Self.token(app))
                .jsonObject()
            #expect(streak["period"] as? String == "week")
            #expect(streak["periodStart"] as? String == "2026-03-30")
            #expect(streak["current"] as? Int == 0)
            #expect(streak["longest"] as? Int == 1)
            let history = try await app.request(
                .get,
                "/api/streaks/history?from=2026-03-01&to=2026-03-29",
                token: try await Self.token(app)
            )
            .jsonObject()
            let entries = try #require(history["entries"] as? [[String: Any]])
            #expect(entries.map { $0["status"] as? String } == ["active", "frozen", "missed", "reset"])
            #expect(
                entries.map { $0["period"] as? String } == ["2026-03-02", "2026-03-09", "2026-03-16", "2026-03-23"]
            )
            #expect((entries[1]["reason"] as? String)?.contains("a freeze was applied automatically") == true)
        }
    }

    @Test(arguments: Backend.available)
    func aFreezeAskedForProtectsAnEmptyPushupWeek(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            try await Self.pushups(app, "w0", reps: 300)
            app.clock.advance(by: 7 * Self.day)
            let frozen = try await app.request(.post, "/api/streaks/freeze", token: try await Self.token(app))
            #expect(frozen.status == .ok, "\(frozen.text)")
            #expect(try frozen.jsonObject()["freezeActive"] as? Bool == true)
            app.clock.advance(by: 7 * Self.day)
            let streak = try await app.request(.get, "/api/streaks/current", token: try await Self.token(app))
                .jsonObject()
            #expect(streak["current"] as? Int == 1)
            #expect(((streak["recent"] as? [[String: Any]])?.first)?["status"] as? String == "frozen")
        }
    }

    /// Spec 003, StreakManager: same day no change, next day +1, a gap starts again at 1, longest kept.
    @Test(arguments: Backend.available)
    func theAppOpenStreakCountsConsecutiveDays(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "astrofriends") { app async throws in
            func open(_ id: String) async throws -> [String: Any] {
                let response = try await app.request(
                    .post,
                    "/api/activities",
                    token: try await Self.token(app),
                    json: [
                        "clientEventId": id, "type": "app_open",
                        "occurredAt": ISO8601DateFormatter().string(from: app.clock.now),
                    ]
                )
                #expect(response.status == .created, "\(response.text)")
                return try await app.request(.get, "/api/streaks/current", token: try await Self.token(app))
                    .jsonObject()
            }
            #expect(try await open("a")["current"] as? Int == 1)
            #expect(try await open("b")["current"] as? Int == 1)
            app.clock.advance(by: Self.day)
            #expect(try await open("c")["current"] as? Int == 2)
            app.clock.advance(by: Self.day)
            #expect(try await open("d")["current"] as? Int == 3)
            app.clock.advance(by: 2 * Self.day)
            let back = try await open("e")
            #expect(back["current"] as? Int == 1)
            #expect(back["longest"] as? Int == 3)
        }
    }
}
