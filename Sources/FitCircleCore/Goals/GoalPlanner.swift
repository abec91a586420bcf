/// Plans goal targets from what the user has done and told (pure; spec 000, Features 1 and 2).
public enum GoalPlanner {
    /// A planned target, before it is stored.
    public struct Plan: Equatable, Sendable {
        public var kind: Goal.Kind
        public var target: Double
        public var basis: String
        /// Follows the user's own baseline rather than a default.
        public var personalised = false
    }

    /// The step goal for `date`: the default during the account's first days or without enough data,
    /// else the average of the recent days with data raised and capped as the profile says.
    /// - Parameters:
    ///   - accountDay: 1 on the day the account was created (in the user's zone).
    ///   - recent: the user's stored days before `date` (only the last `baselineDays` are used).
    public static func dailySteps(
        on date: LocalDate,
        accountDay: Int,
        baseline start: ActivityBaseline,
        recent: [DailyTracking],
        policy: GoalPolicy.Steps
    ) -> Plan {
        let fallback = Double(start == .sedentary ? policy.sedentaryDefault : policy.moderateDefault)
        let baseline = start.rawValue
        if accountDay <= policy.introductoryDays {
            return Plan(
                kind: .steps,
                target: fallback,
                basis: "default for a \(baseline) baseline during the first \(policy.introductoryDays) days"
            )
        }
        let window = date.adding(days: -policy.baselineDays)
        let withData = recent.filter { $0.date >= window && $0.date < date && $0.steps > 0 }
        guard withData.count >= policy.minimumDaysWithData else {
            return Plan(
                kind: .steps,
                target: fallback,
                basis:
                    "default for a \(baseline) baseline: \(withData.count) of the last \(policy.baselineDays) days have steps, \(policy.minimumDaysWithData) needed"
            )
        }
        let average = Double(withData.reduce(0) { $0 + $1.steps }) / Double(withData.count)
        let raised = min(average * (1 + policy.uplift), Double(policy.cap))
        let rounded = (raised / Double(policy.roundTo)).rounded() * Double(policy.roundTo)
        return Plan(
            kind: .steps,
            target: rounded,
            basis:
                "average of \(withData.count) days with steps (\(Int(average.rounded()))) + \(Int((policy.uplift * 100).rounded())) %, at most \(policy.cap)",
            personalised: true
        )
    }

    /// The day's goals of the kinds the profile sets. `weeklyWeightLossKg`: the week's weight-loss target
    /// of a member of a weight-loss circle (`WeightLossPace.weeklyKg`), nil for anyone else.
    public static func daily(
        on date: LocalDate,
        accountDay: Int,
        baseline: ActivityBaseline,
        training: TrainingSettings,
        recent: [DailyTracking],
        weeklyWeightLossKg: Double? = nil,
        policy: GoalPolicy
    ) -> [Plan] {
        policy.daily.compactMap { kind in
            switch kind {
            case .steps:
                dailySteps(on: date, accountDay: accountDay, baseline: baseline, recent: recent, policy: policy.steps)
            case .checkIn: Plan(kind: .checkIn, target: 1, basis: "check in every day")
            case .pushups: Plan(kind: .pushups, target: Double(training.dailyGoal), basis: "your daily push-up goal")
            case .water: Plan(kind: .water, target: policy.waterMl, basis: "the profile's daily water target")
            case .workout: Plan(kind: .workout, target: 1, basis: "one workout a day")
            // A daily weight goal is the pro-rata share of a weight-loss circle's weekly target, bounded to
            // 0.1–0.3 lb; without such a circle there is none, nor in the account's first week ("too early
            // for meaningful daily tracking").
            case .weight:
                accountDay <= policy.steps.introductoryDays
                    ? nil
                    : weeklyWeightLossKg.map { WeightLossPace.dailyKg(weekly: $0) }.flatMap { daily in
                        daily > 0
                            ? Plan(
                                kind: .weight,
                                target: daily,
                                basis: "a seventh of this week's weight-loss target, 0.1–0.3 lb (kg to lose today)"
                            ) : nil
                    }
            case .activeDays: nil
            }
        }
    }

    /// The week's goals of the kinds the profile sets; `dailySteps` is the step goal of the week's first day,
    /// `circleSteps` a step circle's share for a member of one (`FitCircle.weeklyStepShare`), which wins.
    public static func weekly(
        dailySteps: Plan,
        training: TrainingSettings,
        weeklyWeightLossKg: Double? = nil,
        circleSteps: Int? = nil,
        policy: GoalPolicy
    ) -> [Plan] {
        policy.weekly.compactMap { kind in
            switch kind {
            case .steps:
                if let circleSteps {
                    Plan(
                        kind: .steps,
                        target: Double(circleSteps),
                        basis: "your circle's step goal: what is left of it over the weeks remaining"
                    )
                } else if let fixed = policy.steps.weeklyDefault, !dailySteps.personalised {
                    Plan(
                        kind: .steps,
                        target: Double(fixed),
                        basis: "the default until the daily goal follows your baseline"
                    )
                } else {
                    Plan(
                        kind: .steps,
                        target: dailySteps.target * 7,
                        basis: "the daily step goal × 7",
                        personalised: dailySteps.personalised
                    )
                }
            case .checkIn: Plan(kind: .checkIn, target: 7, basis: "check in 7 days of 7")
            case .activeDays:
                Plan(
                    kind: .activeDays,
                    target: Double(policy.activeDaysTarget),
                    basis: "\(policy.activeDaysTarget) days with at least \(policy.activeDayMinimumSteps) steps"
                )
            case .pushups:
                Plan(kind: .pushups, target: Double(training.weeklyGoal), basis: "the daily push-up goal × 5")
            case .water: Plan(kind: .water, target: policy.waterMl * 7, basis: "the daily water target × 7")
            case .workout:
                Plan(kind: .workout, target: Double(training.workoutDaysPerWeek), basis: "your workout days per week")
            // Weight loss follows a circle's target; outside one the week is maintenance, with no target.
            case .weight:
                weeklyWeightLossKg.flatMap { weekly in
                    weekly > 0
                        ? Plan(
                            kind: .weight,
                            target: weekly,
                            basis: "(weight as the week begins − target) / weeks remaining (kg to lose)"
                        ) : nil
                }
            }
        }
    }
}
