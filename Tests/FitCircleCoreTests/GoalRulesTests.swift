import FitCircleCore
import Testing

/// The pure goal rules of spec 000, Features 1, 2 and 6.
struct GoalRulesTests {
    static let steps = GoalPolicy.Steps(
        sedentaryDefault: 5_000,
        moderateDefault: 7_000,
        introductoryDays: 7,
        baselineDays: 7,
        minimumDaysWithData: 3,
        uplift: 0.10,
        cap: 15_000,
        roundTo: 100,
        weeklyDefault: 50_000
    )
    static let policy = GoalPolicy(
        daily: [.steps, .checkIn],
        weekly: [.steps],
        steps: steps,
        waterMl: 2_000,
        activeDayMinimumSteps: 3_000,
        activeDaysTarget: 5
    )
    static let day8 = LocalDate(iso: "2026-03-09")!

    static func week(of steps: Int) -> [DailyTracking] {
        (1...7).map { DailyTracking(date: Self.day8.adding(days: -$0), steps: steps) }
    }

    @Test func f1_theFirstWeekUsesTheDefaultOfTheBaselineTold() {
        let sedentary = GoalPlanner.dailySteps(
            on: Self.day8.adding(days: -7),
            accountDay: 1,
            baseline: .sedentary,
            recent: [],
            policy: Self.steps
        )
        let moderate = GoalPlanner.dailySteps(
            on: Self.day8.adding(days: -7),
            accountDay: 1,
            baseline: .moderate,
            recent: [],
            policy: Self.steps
        )
        #expect((sedentary.target, sedentary.personalised) == (5_000, false))
        #expect((moderate.target, moderate.personalised) == (7_000, false))
    }

    @Test func f1_fromDay8TheAverageOfTheWeekPlus10PercentRoundedTo100() {
        let plan = GoalPlanner.dailySteps(
            on: Self.day8,
            accountDay: 8,
            baseline: .sedentary,
            recent: Self.week(of: 7_317),
            policy: Self.steps
        )
        #expect(plan.target == 8_000)  // 7,317 × 1.1 = 8,048.7 → 8,000
        #expect(plan.personalised)
    }

    @Test func f1_theStepGoalNeverPasses15000() {
        let plan = GoalPlanner.dailySteps(
            on: Self.day8,
            accountDay: 30,
            baseline: .moderate,
            recent: Self.week(of: 21_000),
            policy: Self.steps
        )
        #expect(plan.target == 15_000)
    }

    @Test func f2_theWeekIs50000UntilTheDailyGoalIsPersonalisedThenDailyTimes7() {
        let training = TrainingSettings.defaults
        let early = GoalPlanner.dailySteps(
            on: Self.day8,
            accountDay: 3,
            baseline: .moderate,
            recent: [],
            policy: Self.steps
        )
        #expect(GoalPlanner.weekly(dailySteps: early, training: training, policy: Self.policy).first?.target == 50_000)
        let personal = GoalPlanner.dailySteps(
            on: Self.day8,
            accountDay: 8,
            baseline: .moderate,
            recent: Self.week(of: 7_317),
            policy: Self.steps
        )
        #expect(
            GoalPlanner.weekly(dailySteps: personal, training: training, policy: Self.policy).first?.target == 56_000
        )
    }

    @Test func f6_milestonesAt25_50_75_100OfAWeightLossTarget() {
        #expect(GoalMilestone.percent(startingKg: 62.5, targetKg: 58.5, currentKg: 61.5) == 25)
        #expect(GoalMilestone.percent(startingKg: 62.5, targetKg: 58.5, currentKg: 63) == 0)  // gained: nothing reached
        #expect(GoalMilestone.percent(startingKg: 60, targetKg: 60, currentKg: 55) == 0)  // no target below the start
        #expect(GoalMilestone.reached(24) == nil)
        #expect(GoalMilestone.reached(62) == 50)
        #expect(GoalMilestone.reached(140) == 100)
        #expect(
            GoalMilestone.thresholds.map(GoalMilestone.name) == [
                "A quarter of the way", "Halfway there", "Three quarters there", "Goal reached",
            ]
        )
    }
}
