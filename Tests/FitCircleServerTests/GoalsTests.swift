import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import Testing

/// Daily and weekly goals through the HTTP API.
struct GoalsTests {
    static let day: TimeInterval = 86_400
    typealias Period = Components.Schemas.GoalPeriod

    static func daily(_ app: TestApp) async throws -> Period {
        try await app.api(as: "ana@example.com").getDailyGoals().ok.body.json
    }

    static func weekly(_ app: TestApp) async throws -> Period {
        try await app.api(as: "ana@example.com").getWeeklyGoals().ok.body.json
    }

    static func summary(_ app: TestApp) async throws -> Components.Schemas.WeeklySummary {
        try await app.api(as: "ana@example.com").getWeeklySummary().ok.body.json
    }

    static func choose(_ app: TestApp, _ choice: Operations.ChooseWeeklyGoal.Input.Body.JsonPayload.ChoicePayload)
        async throws -> Operations.ChooseWeeklyGoal.Output
    {
        try await app.api(as: "ana@example.com").chooseWeeklyGoal(body: .json(.init(choice: choice)))
    }

    static func progress(_ app: TestApp, _ goal: String, _ value: Double) async throws
        -> Operations.UpdateDailyGoalProgress.Output
    {
        try await app.api(as: "ana@example.com").updateDailyGoalProgress(
            path: .init(id: goal),
            body: .json(.init(value: value))
        )
    }

    static func sync(_ app: TestApp, steps: Int) async throws {
        let sync = Components.Schemas.DailySync(source: .healthkit, occurredAt: app.clock.now, steps: steps)
        _ = try await app.api(as: "ana@example.com").syncDailyTotals(body: .json(sync)).ok
    }

    /// Spec 000, Flow 1: the default step goal during the first week, then the user's average + 10 % on day 8.
    @Test(arguments: Backend.available)
    func theStepGoalMovesFromTheDefaultToTheAveragePlusTenPercentOnDayEight(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            // Day 5 has no data: it does not count towards the average.
            let steps = [6000, 7200, 8100, 6900, 0, 7700, 8000]
            for (index, count) in steps.enumerated() {
                let goals = try await Self.daily(app)
                let stepGoal = try #require(goals[.steps])
                #expect(stepGoal.target == 7000, "day \(index + 1)")
                #expect(stepGoal.basis.hasPrefix("default for a moderate baseline"))
                #expect(goals[.checkIn]?.target == 1)
                #expect(goals[.weight] == nil)
                if count > 0 { try await Self.sync(app, steps: count) }
                app.clock.advance(by: Self.day)
            }
            let day8 = try #require(try await Self.daily(app)[.steps])
            // (6000 + 7200 + 8100 + 6900 + 7700 + 8000) / 6 = 7316.7; + 10 % = 8048.3; to the nearest 100.
            #expect(day8.target == 8000)
            #expect(day8.basis == "average of 6 days with steps (7317) + 10 %, at most 15000")
            #expect(day8.period == "2026-03-09")

            let history = try await app.api(as: "ana@example.com").getDailyGoalHistory(query: .init(days: 8))
            let periods = try history.ok.body.json.periods
            #expect(periods.count == 8)
            // Day 3 (8,100 steps) met its 7,000 goal; day 5 did not.
            let completed = periods.reversed().map { $0[.steps]?.completed }
            #expect(completed == [false, true, true, false, false, true, true, false])
        }
    }

    @Test(arguments: Backend.available)
    func progressFollowsTheLedgerAndAGoalClosesWhenMet(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            let goals = try await Self.daily(app)
            let steps = try #require(goals[.steps])
            #expect(steps.actual == 0)

            // Manual progress is recorded in the ledger; the day and the goal follow.
            let manual = try await Self.progress(app, steps.id, 3000).ok.body.json
            #expect(manual.actual == 3000)
            #expect(manual.percent == 42)
            let lower = try await Self.progress(app, steps.id, 2000)
            #expect(try lower.unprocessableContent.body.applicationProblemJson.fields.first == "value")
            _ = try await Self.progress(app, steps.id, 1e12).unprocessableContent

            // A health-data sync above the manual count wins (the profile combines them by maximum).
            try await Self.sync(app, steps: 7400)
            let met = try #require(try await Self.daily(app)[.steps])
            #expect(met.actual == 7400)
            #expect(met.completed)
            #expect(met.percent == 100)

            let checkInGoal = try #require(goals[.checkIn]?.id)
            _ = try await Self.progress(app, checkInGoal, 1).conflict
            let api = try await app.api(as: "ana@example.com")
            _ = try await api.checkIn(body: .json(.init(mood: 3, energy: 3))).created
            #expect(try await Self.daily(app)[.checkIn]?.completed == true)

            // The next day's check-in acknowledges this day: 7,400 steps of a 7,000 goal.
            app.clock.advance(by: Self.day)
            let next = try await app.api(as: "ana@example.com").checkIn(body: .json(.init(mood: 3, energy: 3)))
            let acknowledged = try next.created.body.json.previousDay
            #expect(acknowledged.steps == 7400)
            #expect(acknowledged.goalPercent == 105)

            _ = try await Self.progress(app, "nope", 1).notFound
        }
    }

    @Test(arguments: Backend.available)
    func weeklyGoalsHaveADailyBreakdownFromTheProfilesWeekStart(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            // Wednesday 4 March: the fitcircle week started on Monday 2 March.
            app.clock.advance(by: 2 * Self.day)
            try await Self.sync(app, steps: 4200)
            let week = try await Self.weekly(app)
            #expect(week.start == "2026-03-02")
            let steps = try #require(week[.steps])
            #expect(steps.target == 50_000)  // spec 000 F2: the default while the daily goal is one too
            #expect(steps.actual == 4200)
            #expect(steps.breakdown.map(\.date) == (2...8).map { String(format: "2026-03-%02d", $0) })
            #expect(steps.breakdown.map(\.value) == [0, 0, 4200, 0, 0, 0, 0])
            #expect(week[.checkIn]?.target == 7)
            #expect(week[.activeDays]?.actual == 1)
            let api = try await app.api(as: "ana@example.com")
            #expect(try await api.getWeeklyGoalHistory(query: .init(weeks: 4)).ok.body.json.periods.count == 1)
            _ = try await api.getWeeklyGoalHistory(query: .init(weeks: 0)).unprocessableContent
        }
    }

    /// Spec 001: the push-up week runs Monday to Sunday; on Sunday the popup shows the week, once, and its
    /// choice sets the daily goal at once while the week keeps the target it was reached against.
    @Test(arguments: Backend.available)
    func thePushupWeeklySummaryIsShownOnceAndItsChoiceSetsTheDailyGoal(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            #expect(try await Self.daily(app)[.pushups]?.target == 50)
            let week = try await Self.weekly(app)
            #expect(week.start == "2026-03-02")
            #expect(week[.pushups]?.target == 250)
            // 60 push-ups a day, Monday to Friday: 300 against 250.
            for day in 0..<5 {
                let workout = Components.Schemas.WorkoutInput(
                    _type: .pushups,
                    durationSeconds: 300,
                    series: 3,
                    reps: 60
                )
                let input = Components.Schemas.ActivityInput(
                    clientEventId: "p\(day)",
                    _type: .workout,
                    occurredAt: app.clock.now,
                    workout: workout
                )
                _ = try await app.api(as: "ana@example.com").recordActivity(body: .json(input)).created
                app.clock.advance(by: Self.day)
            }
            // Sunday 8 March: the week of 2–8 March.
            app.clock.advance(by: Self.day)
            let summary = try await Self.summary(app)
            #expect(summary.weekStart == "2026-03-02")
            #expect(summary.reps == 300)
            #expect(summary.excessReps == 0)
            #expect(summary.percent == 120)
            #expect(summary.reached)
            #expect(!summary.alreadySeen)
            #expect(summary.options.map(\.dailyGoal) == [50, 55, 60])
            #expect(try await Self.summary(app).alreadySeen)

            let chosen = try await Self.choose(app, .increase10).ok.body.json
            #expect(chosen.settings.value1.dailyGoal == 55)
            #expect(chosen.summary.reached)
            _ = try await Self.choose(app, .increase20).conflict
            let training = try await app.api(as: "ana@example.com").getTrainingSettings().ok.body.json
            #expect(training.value1.dailyGoal == 55)
            #expect(try await Self.daily(app)[.pushups]?.target == 55)
            #expect(try await Self.weekly(app)[.pushups]?.target == 250)
            // Monday: the new week's target follows the new goal; the popup was seen.
            app.clock.advance(by: Self.day)
            #expect(try await Self.weekly(app)[.pushups]?.target == 275)
            let monday = try await Self.summary(app)
            #expect(monday.weekStart == "2026-03-02" && monday.alreadySeen)
        }
    }

    @Test(arguments: Backend.available)
    func aWeekShortOfItsTargetOffersNoChoice(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            _ = try await app.devSignIn()
            app.clock.advance(by: 6 * Self.day)
            let summary = try await Self.summary(app)
            #expect(!summary.reached)
            #expect(summary.options.isEmpty)
            _ = try await Self.choose(app, .maintain).conflict
        }
    }
}
