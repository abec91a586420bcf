/// How a profile's streak works (a rule-profile section): what keeps it, over which period, how freezes
/// are granted and spent, when it resets and which counts are milestones.
public struct StreakPolicy: Equatable, Sendable, Codable {
    /// What a period needs to count.
    public enum Basis: String, CaseIterable, Equatable, Sendable, Codable {
        /// A check-in (mood, energy, yesterday's acknowledgement) on the day.
        case checkIn = "check_in"
        /// Opening the app on the day.
        case appOpen = "app_open"
        /// The week's push-ups reaching the weekly goal.
        case pushups
    }

    /// What one step of the streak is.
    public enum Period: String, CaseIterable, Equatable, Sendable, Codable {
        case day, week
    }

    public struct Freezes: Equatable, Sendable, Codable {
        /// When a spent freeze is given back: `week` (at the profile's week start) or `month` (on the 1st).
        public enum Allowance: String, CaseIterable, Equatable, Sendable, Codable {
            case week, month
        }

        /// When a freeze is spent without being asked for.
        public enum Automatic: String, CaseIterable, Equatable, Sendable, Codable {
            /// On a period with nothing in it (spec 000: a single missed day).
            case onMiss = "on_miss"
            /// On a period with some activity but short of its goal (spec 001, CHAL-03).
            case onShortfall = "on_shortfall"
            case never
        }

        /// Freezes available in each allowance period.
        public var count: Int
        public var per: Allowance
        public var automatic: Automatic

        public init(count: Int, per: Allowance, automatic: Automatic) {
            self.count = count
            self.per = per
            self.automatic = automatic
        }
    }

    public struct Milestone: Equatable, Sendable, Codable {
        /// The streak count that reaches it.
        public var count: Int
        /// The badge it unlocks.
        public var badge: String

        public init(count: Int, badge: String) {
            self.count = count
            self.badge = badge
        }
    }

    public var basis: Basis
    public var period: Period
    public var freezes: Freezes
    /// Consecutive missed periods that reset the streak to zero. A frozen period counts as missed but never
    /// resets, so with 1 a freeze is what lets a period be missed (spec 000), and with 2 a single miss is
    /// always survived and a freeze decides nothing.
    public var resetAfterMissed: Int
    /// Whether a period with some activity short of its goal keeps the streak (spec 001, WEEKLY-05: only a
    /// week with no push-ups at all resets it) instead of counting as missed.
    public var shortfallKeepsStreak: Bool
    public var milestones: [Milestone]
    /// How many days back a check-in may be dated (1: yesterday's may still be claimed).
    public var checkInGraceDays: Int

    public init(
        basis: Basis,
        period: Period,
        freezes: Freezes,
        resetAfterMissed: Int,
        shortfallKeepsStreak: Bool = false,
        milestones: [Milestone] = [],
        checkInGraceDays: Int = 1
    ) {
        self.basis = basis
        self.period = period
        self.freezes = freezes
        self.resetAfterMissed = resetAfterMissed
        self.shortfallKeepsStreak = shortfallKeepsStreak
        self.milestones = milestones
        self.checkInGraceDays = checkInGraceDays
    }
}

extension StreakPolicy.Basis {
    /// What one day adds to its period: 1 for a check-in or an app open, the push-ups done.
    public func progress(of day: DailyTracking) -> Int {
        switch self {
        case .checkIn: day.checkedIn ? 1 : 0
        case .appOpen: day.appOpened ? 1 : 0
        case .pushups: day.pushupReps
        }
    }
}
