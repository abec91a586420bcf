import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import Testing

/// Onboarding recommendations and training settings (spec 001), and the push-up and app-open streaks.
struct TrainingAndOtherStreaksTests {
    static let day: TimeInterval = 86_400

    static func api(_ app: TestApp) async throws -> Client { try await app.api(as: "ana@example.com") }

    @Test(
        arguments: Backend.available,
        [
            (8, .beginner, 1, 60), (15, .intermediate, 2, 45), (30, .advanced, 5, 30), (50, .advanced, 10, 30),
        ] as [(Int, Components.Schemas.TrainingLevel, Int, Int)]
    )
    func theAssessmentRecommendsWithoutSaving(
        _ backend: Backend,
        answer: (Int, Components.Schemas.TrainingLevel, Int, Int)
    ) async throws {
        let (capacity, level, series, recovery) = answer
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let api = try await Self.api(app)
            let assessment = Components.Schemas.TrainingAssessment(
                level: level,
                capacity: capacity,
                workoutDaysPerWeek: 5
            )
            let recommended = try await api.assessTraining(body: .json(assessment)).ok.body.json
            #expect(recommended.value1.startingSeries == series)
            #expect(recommended.value1.recoverySeconds == recovery)
            #expect(recommended.value1.dailyGoal == Int((Double(capacity) * 2.5 / 5).rounded()) * 5)
            #expect(!recommended.value2.saved)
            #expect(try await api.getTrainingSettings().ok.body.json.value2.saved == false)
        }
    }

    @Test(arguments: Backend.available)
    func confirmingSavesAndSkippingSavesTheDefaults(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let api = try await Self.api(app)
            let confirmation = Components.Schemas.TrainingConfirmation(
                level: .beginner,
                capacity: 12,
                workoutDaysPerWeek: 3,
                dailyGoal: 40,
                recoverySeconds: 75
            )
            _ = try await api.confirmTraining(body: .json(confirmation)).ok
            let settings = try await api.getTrainingSettings().ok.body.json
            #expect(settings.value1.dailyGoal == 40)
            #expect(settings.value2.weeklyGoal == 200)
            #expect(settings.value1.startingSeries == 2)
            #expect(settings.value1.recoverySeconds == 75)
            #expect(settings.value2.saved)

            let skipped = try await api.confirmTraining(body: .json(.init(skipped: true))).ok.body.json.value1
            #expect(skipped.level == .intermediate)
            #expect(skipped.capacity == 20)
            #expect(skipped.workoutDaysPerWeek == 5)
            #expect(skipped.dailyGoal == 50)

            let absurd = try await api.assessTraining(
                body: .json(.init(level: .beginner, capacity: 1_000_000_000_000, workoutDaysPerWeek: 0))
            )
            #expect(
                try absurd.unprocessableContent.body.applicationProblemJson.fields == [
                    "capacity", "workoutDaysPerWeek",
                ]
            )

            let incomplete = try await api.confirmTraining(body: .json(.init(capacity: 12)))
            #expect(
                try incomplete.unprocessableContent.body.applicationProblemJson.fields == [
                    "level", "workoutDaysPerWeek",
                ]
            )
        }
    }

    @Test(arguments: Backend.available)
    func settingsAreEditedWithTheSameChecksAndABadValueChangesNothing(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let api = try await Self.api(app)
            let valid = Components.Schemas.TrainingSettingsInput(
                level: .advanced,
                capacity: 45,
                workoutDaysPerWeek: 6,
                dailyGoal: 120,
                startingSeries: 10,
                recoverySeconds: 30
            )
            _ = try await api.updateTrainingSettings(body: .json(valid)).ok
            var invalid = valid
            (invalid.workoutDaysPerWeek, invalid.recoverySeconds) = (8, 5)
            let refused = try await api.updateTrainingSettings(body: .json(invalid))
            #expect(
                try refused.unprocessableContent.body.applicationProblemJson.fields == [
                    "workoutDaysPerWeek", "recoverySeconds",
                ]
            )
            #expect(try await api.getTrainingSettings().ok.body.json.value1.workoutDaysPerWeek == 6)
        }
    }

    static func pushups(_ app: TestApp, _ id: String, reps: Int) async throws {
        let input = Components.Schemas.ActivityInput(
            clientEventId: id,
            _type: .workout,
            occurredAt: app.clock.now,
            workout: .init(_type: .pushups, durationSeconds: 120, reps: reps)
        )
        _ = try await Self.api(app).recordActivity(body: .json(input)).created
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
            let api = try await Self.api(app)
            let streak = try await api.getCurrentStreak().ok.body.json
            #expect(streak.period == .week)
            #expect(streak.periodStart == "2026-03-30")
            #expect(streak.current == 0)
            #expect(streak.longest == 1)
            let history = try await api.getStreakHistory(query: .init(from: "2026-03-01", to: "2026-03-29"))
            let entries = try history.ok.body.json.entries
            #expect(entries.map(\.status) == [.active, .frozen, .missed, .reset])
            #expect(entries.map(\.period) == ["2026-03-02", "2026-03-09", "2026-03-16", "2026-03-23"])
            #expect(entries[1].reason.contains("a freeze was applied automatically"))
        }
    }

    @Test(arguments: Backend.available)
    func aFreezeAskedForProtectsAnEmptyPushupWeek(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            try await Self.pushups(app, "w0", reps: 300)
            app.clock.advance(by: 7 * Self.day)
            #expect(try await Self.api(app).freezeStreak().ok.body.json.freezeActive)
            app.clock.advance(by: 7 * Self.day)
            let streak = try await Self.api(app).getCurrentStreak().ok.body.json
            #expect(streak.current == 1)
            #expect(streak.recent.first?.status == .frozen)
        }
    }

    /// Spec 003, StreakManager: same day no change, next day +1, a gap starts again at 1, longest kept.
    @Test(arguments: Backend.available)
    func theAppOpenStreakCountsConsecutiveDays(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "astrofriends") { app async throws in
            func open(_ id: String) async throws -> Components.Schemas.StreakSummary {
                let api = try await Self.api(app)
                let input = Components.Schemas.ActivityInput(
                    clientEventId: id,
                    _type: .appOpen,
                    occurredAt: app.clock.now
                )
                _ = try await api.recordActivity(body: .json(input)).created
                return try await api.getCurrentStreak().ok.body.json
            }
            #expect(try await open("a").current == 1)
            #expect(try await open("b").current == 1)
            app.clock.advance(by: Self.day)
            #expect(try await open("c").current == 2)
            app.clock.advance(by: Self.day)
            #expect(try await open("d").current == 3)
            app.clock.advance(by: 2 * Self.day)
            let back = try await open("e")
            #expect(back.current == 1)
            #expect(back.longest == 3)
        }
    }
}
