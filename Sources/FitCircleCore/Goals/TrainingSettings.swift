/// A trainee's settings (spec 001, ONBD-01…04): what onboarding recommends and the settings screen edits.
public struct TrainingSettings: Equatable, Sendable, Codable {
    public enum Level: String, CaseIterable, Equatable, Sendable, Codable {
        case beginner, intermediate, advanced
    }

    public var level: Level
    /// The most push-ups the user can do in one set.
    public var capacity: Int
    public var workoutDaysPerWeek: Int
    /// Push-ups a day.
    public var dailyGoal: Int
    /// The series a workout starts at.
    public var startingSeries: Int
    /// Rest between series.
    public var recoverySeconds: Int

    public init(
        level: Level,
        capacity: Int,
        workoutDaysPerWeek: Int,
        dailyGoal: Int,
        startingSeries: Int,
        recoverySeconds: Int
    ) {
        self.level = level
        self.capacity = capacity
        self.workoutDaysPerWeek = workoutDaysPerWeek
        self.dailyGoal = dailyGoal
        self.startingSeries = startingSeries
        self.recoverySeconds = recoverySeconds
    }

    /// What a user who skipped onboarding trains with (spec 001, ONBD-01: intermediate, 20 push-ups,
    /// 5 days a week, 50 a day), with the series and recovery those values recommend.
    public static let defaults = TrainingSettings.recommended(
        level: .intermediate,
        capacity: 20,
        workoutDaysPerWeek: 5,
        dailyGoal: 50
    )

    /// The week's push-up target: the daily goal on five workout days (spec 001, WEEKLY-01).
    public var weeklyGoal: Int { self.dailyGoal * 5 }

    /// The recommendations of ONBD-02 for what the assessment said.
    /// - Starting series by capacity: under 10 → 1, under 20 → 2, under 40 → 5, else 10.
    /// - Recovery by level: beginner 60 s, intermediate 45 s, advanced 30 s.
    /// - Daily goal, unless the user chose one: 2.5 × capacity scaled by workout days against the usual
    ///   five, rounded to 5 (20 push-ups on 5 days → 50, the spec's default).
    public static func recommended(level: Level, capacity: Int, workoutDaysPerWeek: Int, dailyGoal: Int? = nil)
        -> TrainingSettings
    {
        let series =
            switch capacity {
            case ..<10: 1
            case ..<20: 2
            case ..<40: 5
            default: 10
            }
        let recovery =
            switch level {
            case .beginner: 60
            case .intermediate: 45
            case .advanced: 30
            }
        let computed = Double(capacity) * 2.5 * Double(workoutDaysPerWeek) / 5
        let goal = dailyGoal ?? max(5, Int((computed / 5).rounded()) * 5)
        return TrainingSettings(
            level: level,
            capacity: capacity,
            workoutDaysPerWeek: workoutDaysPerWeek,
            dailyGoal: goal,
            startingSeries: series,
            recoverySeconds: recovery
        )
    }

    /// Checks every value, reporting all that are wrong at once under `prefix + field`.
    public func validate(field prefix: String = "") throws(ValidationError) {
        var validator = Validator()
        validator.check((1...500).contains(self.capacity), prefix + "capacity", "must be between 1 and 500 push-ups")
        validator.check(
            (1...7).contains(self.workoutDaysPerWeek),
            prefix + "workoutDaysPerWeek",
            "must be between 1 and 7"
        )
        validator.check(
            (1...5000).contains(self.dailyGoal),
            prefix + "dailyGoal",
            "must be between 1 and 5000 push-ups"
        )
        validator.check((1...100).contains(self.startingSeries), prefix + "startingSeries", "must be between 1 and 100")
        validator.check(
            (10...600).contains(self.recoverySeconds),
            prefix + "recoverySeconds",
            "must be between 10 and 600 seconds"
        )
        try validator.throwIfInvalid()
    }
}
