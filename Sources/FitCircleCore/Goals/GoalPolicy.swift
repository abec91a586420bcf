/// Which goals a profile sets and how their targets are planned (a rule-profile section; spec 000,
/// Features 1 and 2; spec 001, weekly goals).
public struct GoalPolicy: Equatable, Sendable, Codable {
    /// The goals set each local day.
    public var daily: [Goal.Kind]
    /// The goals set each week (from the profile's week start).
    public var weekly: [Goal.Kind]
    public var steps: Steps
    /// Daily water target, when `water` is a daily goal.
    public var waterMl: Double
    /// A day counts as active with at least this many steps; the weekly `active_days` goal wants `activeDaysTarget` of them.
    public var activeDayMinimumSteps: Int
    public var activeDaysTarget: Int

    public init(
        daily: [Goal.Kind],
        weekly: [Goal.Kind],
        steps: Steps,
        waterMl: Double,
        activeDayMinimumSteps: Int,
        activeDaysTarget: Int
    ) {
        self.daily = daily
        self.weekly = weekly
        self.steps = steps
        self.waterMl = waterMl
        self.activeDayMinimumSteps = activeDayMinimumSteps
        self.activeDaysTarget = activeDaysTarget
    }

    /// The adaptive step goal.
    public struct Steps: Equatable, Sendable, Codable {
        /// The first days of an account use a default by baseline: sedentary (a beginner) or moderate.
        public var sedentaryDefault: Int
        public var moderateDefault: Int
        /// How many first days of an account use the default (days 1–7).
        public var introductoryDays: Int
        /// The baseline is the average of the days with data among this many days before the goal's day.
        public var baselineDays: Int
        /// A day has data when it holds a step total above zero; fewer such days than this and the goal
        /// falls back to the default.
        public var minimumDaysWithData: Int
        /// The baseline is raised by this fraction (0.10: +10 %)…
        public var uplift: Double
        /// …capped at this many steps…
        public var cap: Int
        /// …and rounded to a multiple of this.
        public var roundTo: Int
        /// The week's step total while the daily goal is still a default (spec 000 F2: 50,000); once it
        /// follows the user's baseline, the daily goal × 7. Absent: always the daily goal × 7.
        public var weeklyDefault: Int?

        public init(
            sedentaryDefault: Int,
            moderateDefault: Int,
            introductoryDays: Int,
            baselineDays: Int,
            minimumDaysWithData: Int,
            uplift: Double,
            cap: Int,
            roundTo: Int,
            weeklyDefault: Int? = nil
        ) {
            self.sedentaryDefault = sedentaryDefault
            self.moderateDefault = moderateDefault
            self.introductoryDays = introductoryDays
            self.baselineDays = baselineDays
            self.minimumDaysWithData = minimumDaysWithData
            self.uplift = uplift
            self.cap = cap
            self.roundTo = roundTo
            self.weeklyDefault = weeklyDefault
        }
    }
}
