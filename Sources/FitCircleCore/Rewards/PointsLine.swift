public import Foundation

/// One line of the append-only points ledger: an amount, why, and everything it was computed from.
public struct PointsLine: Equatable, Sendable, Identifiable {
    public typealias ID = Identifier<PointsLine>

    public var id: ID
    /// The local date the points belong to (the week's last day for weekly rewards).
    public var date: LocalDate
    public var amount: Int
    public var reason: Reason
    /// Unique per user: what the line rewards ("series:<event>", "weekly_bonus:<week start>", "badge:<id>"),
    /// so nothing is credited twice.
    public var sourceKey: String
    public var sourceEventID: ActivityEvent.ID?
    /// The streak multiplier applied, for lines that have one.
    public var multiplier: Double?
    /// Push-ups counted toward totals and over the cap (negative on a reversal).
    public var counted: Int
    public var excess: Int
    public var detail: Detail
    public var createdAt: Date
    /// The ledger's order, assigned on insert under the user's lock.
    public var sequence: Int64?

    public init(
        id: ID,
        date: LocalDate,
        amount: Int,
        reason: Reason,
        sourceKey: String,
        sourceEventID: ActivityEvent.ID? = nil,
        multiplier: Double? = nil,
        counted: Int = 0,
        excess: Int = 0,
        detail: Detail = Detail(),
        createdAt: Date,
        sequence: Int64? = nil
    ) {
        self.id = id
        self.date = date
        self.amount = amount
        self.reason = reason
        self.sourceKey = sourceKey
        self.sourceEventID = sourceEventID
        self.multiplier = multiplier
        self.counted = counted
        self.excess = excess
        self.detail = detail
        self.createdAt = createdAt
        self.sequence = sequence
    }

    public enum Reason: String, Equatable, Sendable, Codable, CaseIterable {
        case series
        case workout
        case checkIn = "check_in"
        case goalMet = "goal_met"
        case submission
        case weeklyBonus = "weekly_bonus"
        case weeklyChallenge = "weekly_challenge"
        case badge
        /// XP put in a challenge's escrow (negative), given back, or won (spec 002 stakes).
        case stake
        case stakeRefund = "stake_refund"
        case stakePayout = "stake_payout"
        /// Takes back a deleted input's points.
        case reversal
    }

    /// The inputs of the computation as they were when the line was written.
    public struct Detail: Equatable, Sendable, Codable {
        public var series: Points.SeriesAward?
        /// The user's level before the line.
        public var level: Int?
        public var dailyGoal: Int?
        /// Closed periods of the current streak, which set the streak multiplier.
        public var streak: Int?
        public var weekStart: LocalDate?
        public var target: Int?
        public var badgeID: String?
        public var goalID: String?
        /// What a reversal takes back.
        public var reverses: Reason?
        /// The challenge of a stake, refund or payout.
        public var challengeID: String?
        /// The input came later than the profile's `lateDays` allow: tracked and counted, worth no points.
        public var late: Bool?

        public init(
            series: Points.SeriesAward? = nil,
            level: Int? = nil,
            dailyGoal: Int? = nil,
            streak: Int? = nil,
            weekStart: LocalDate? = nil,
            target: Int? = nil,
            badgeID: String? = nil,
            goalID: String? = nil,
            reverses: Reason? = nil,
            challengeID: String? = nil,
            late: Bool? = nil
        ) {
            self.challengeID = challengeID
            self.late = late
            self.series = series
            self.level = level
            self.dailyGoal = dailyGoal
            self.streak = streak
            self.weekStart = weekStart
            self.target = target
            self.badgeID = badgeID
            self.goalID = goalID
            self.reverses = reverses
        }
    }
}

/// A user's points on one local date (POINTS-04), summed from the ledger.
public struct PointsDay: Equatable, Sendable {
    public var date: LocalDate
    public var points: Int
    /// The streak multiplier of the day's last rewarded series or workout.
    public var multiplier: Double
    public var pushupsCounted: Int
    public var pushupsExcess: Int
    public var workoutPoints: Int

    public init(
        date: LocalDate,
        points: Int = 0,
        multiplier: Double = 1,
        pushupsCounted: Int = 0,
        pushupsExcess: Int = 0,
        workoutPoints: Int = 0
    ) {
        self.date = date
        self.points = points
        self.multiplier = multiplier
        self.pushupsCounted = pushupsCounted
        self.pushupsExcess = pushupsExcess
        self.workoutPoints = workoutPoints
    }

    /// The days of `lines`, in date order.
    public static func summarize(_ lines: [PointsLine]) -> [PointsDay] {
        var days: [LocalDate: PointsDay] = [:]
        for line in lines.sorted(by: { ($0.sequence ?? 0) < ($1.sequence ?? 0) }) {
            days[line.date] = (days[line.date] ?? PointsDay(date: line.date)).adding(line)
        }
        return days.values.sorted { $0.date < $1.date }
    }

    /// The day with one more of its lines.
    public func adding(_ line: PointsLine) -> PointsDay {
        var day = self
        day.points += line.amount
        day.pushupsCounted += line.counted
        day.pushupsExcess += line.excess
        if line.reason == .workout || line.detail.reverses == .workout {
            day.workoutPoints += line.amount
        }
        if let multiplier = line.multiplier, line.reason != .reversal { day.multiplier = multiplier }
        return day
    }
}

/// A user's running totals: points, level and the counters badges read (POINTS-05).
public struct RewardStats: Equatable, Sendable {
    public var totalPoints: Int
    public var level: Int
    public var counters: [Badge.Counter: Int]

    public init(totalPoints: Int = 0, level: Int = 1, counters: [Badge.Counter: Int] = [:]) {
        self.totalPoints = totalPoints
        self.level = level
        self.counters = counters
    }

    /// The counters with the totals that are counters too.
    public var allCounters: [Badge.Counter: Int] {
        var all = self.counters
        all[.points] = self.totalPoints
        all[.level] = self.level
        return all
    }
}
