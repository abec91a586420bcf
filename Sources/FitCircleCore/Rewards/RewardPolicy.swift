import Foundation

/// How an app rewards activity: the profile's `rewards` section. Every amount a user is credited comes
/// from here, through the pure rules of `Points`, `LevelCurve` and `Badge`.
public struct RewardPolicy: Equatable, Sendable, Codable {
    /// What the app calls its points ("points", "XP").
    public var unit: String
    /// Push-ups: `base × (reps × perRep + series × perSeries) × StreakMult` per recorded series (spec 001).
    public var series: SeriesPoints?
    /// `StreakMult = min(maximum, 1 + step × closed periods of the current streak)`.
    public var streakMultiplier: StreakMultiplier
    /// XP per workout from its type, duration and calories (spec 002).
    public var workouts: WorkoutPoints?
    /// Points per check-in, per goal met and per circle submission (spec 000).
    public var checkIn: Int?
    public var goalMet: Int?
    public var submission: Int?
    /// Credited once a week, on its last day, when the week's counted push-ups reach the weekly goal.
    public var weeklyBonus: Int?
    public var weeklyChallenge: WeeklyChallenge?
    public var levels: LevelCurve
    /// The daily cap on counted push-ups (anti-cheat); none when absent.
    public var pushupCap: PushupCap?
    public var badges: [Badge]
    /// An input dated more than this many days before the day it reached the server earns no points: it is
    /// tracked and counted, and its ledger line says `late` (a walk backdated ten years once earned 867 XP,
    /// and a batch of them 86,700). Every profile has the rule; the default is a week.
    public var lateDays: Int

    public static let defaultLateDays = 7

    public init(
        unit: String = "points",
        series: SeriesPoints? = nil,
        streakMultiplier: StreakMultiplier = .init(step: 0, maximum: 1),
        workouts: WorkoutPoints? = nil,
        checkIn: Int? = nil,
        goalMet: Int? = nil,
        submission: Int? = nil,
        weeklyBonus: Int? = nil,
        weeklyChallenge: WeeklyChallenge? = nil,
        levels: LevelCurve,
        pushupCap: PushupCap? = nil,
        badges: [Badge] = [],
        lateDays: Int = RewardPolicy.defaultLateDays
    ) {
        self.lateDays = lateDays
        self.unit = unit
        self.series = series
        self.streakMultiplier = streakMultiplier
        self.workouts = workouts
        self.checkIn = checkIn
        self.goalMet = goalMet
        self.submission = submission
        self.weeklyBonus = weeklyBonus
        self.weeklyChallenge = weeklyChallenge
        self.levels = levels
        self.pushupCap = pushupCap
        self.badges = badges
    }

    private enum CodingKeys: String, CodingKey {
        case unit, series, streakMultiplier, workouts, checkIn, goalMet, submission, weeklyBonus, weeklyChallenge,
            levels, pushupCap, badges, lateDays
    }

    /// Everything but `levels` may be left out of a profile.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            unit: try container.decodeIfPresent(String.self, forKey: .unit) ?? "points",
            series: try container.decodeIfPresent(SeriesPoints.self, forKey: .series),
            streakMultiplier: try container.decodeIfPresent(StreakMultiplier.self, forKey: .streakMultiplier)
                ?? .init(step: 0, maximum: 1),
            workouts: try container.decodeIfPresent(WorkoutPoints.self, forKey: .workouts),
            checkIn: try container.decodeIfPresent(Int.self, forKey: .checkIn),
            goalMet: try container.decodeIfPresent(Int.self, forKey: .goalMet),
            submission: try container.decodeIfPresent(Int.self, forKey: .submission),
            weeklyBonus: try container.decodeIfPresent(Int.self, forKey: .weeklyBonus),
            weeklyChallenge: try container.decodeIfPresent(WeeklyChallenge.self, forKey: .weeklyChallenge),
            levels: try container.decode(LevelCurve.self, forKey: .levels),
            pushupCap: try container.decodeIfPresent(PushupCap.self, forKey: .pushupCap),
            badges: try container.decodeIfPresent([Badge].self, forKey: .badges) ?? [],
            lateDays: try container.decodeIfPresent(Int.self, forKey: .lateDays) ?? RewardPolicy.defaultLateDays
        )
    }

    /// Whether `event` came too late to earn points: its day is more than `lateDays` before the day (in its
    /// own zone) it reached the server. Decided from what the event stores, so a replay decides the same.
    public func isLate(_ event: ActivityEvent) -> Bool {
        let zone = TimeZone(identifier: event.timeZone) ?? .gmt
        return event.localDate < LocalDate(event.receivedAt, in: zone).adding(days: -self.lateDays)
    }

    public struct SeriesPoints: Equatable, Sendable, Codable {
        public var base: Double
        public var perRep: Double
        public var perSeries: Double

        public init(base: Double, perRep: Double, perSeries: Double) {
            self.base = base
            self.perRep = perRep
            self.perSeries = perSeries
        }
    }

    public struct StreakMultiplier: Equatable, Sendable, Codable {
        public var step: Double
        public var maximum: Double

        public init(step: Double, maximum: Double) {
            self.step = step
            self.maximum = maximum
        }

        /// The multiplier for a streak of `periods` closed periods.
        public func value(streak periods: Int) -> Double {
            min(self.maximum, 1 + self.step * Double(max(0, periods)))
        }
    }

    public struct WorkoutPoints: Equatable, Sendable, Codable {
        /// XP per minute by workout type; a type not listed earns `perMinute["other"]`.
        public var perMinute: [String: Double]
        public var perCalorie: Double
        /// The most workout XP one local day can earn.
        public var dailyMaximum: Int

        public init(perMinute: [String: Double], perCalorie: Double, dailyMaximum: Int) {
            self.perMinute = perMinute
            self.perCalorie = perCalorie
            self.dailyMaximum = dailyMaximum
        }
    }

    /// "Complete X push-ups this week", X = daily goal × `goalDays`; completing it earns `points` and the
    /// badge "Weekly Challenge <week start>".
    public struct WeeklyChallenge: Equatable, Sendable, Codable {
        public var goalDays: Int
        public var points: Int
        /// The challenge's own week, when it is not the profile's: spec 001's "challenge resets every
        /// Sunday", announced at 08:00 that Sunday (NOTIF-04), while the training week runs Monday to Sunday.
        public var weekStartsOn: Weekday?

        public init(goalDays: Int, points: Int, weekStartsOn: Weekday? = nil) {
            self.goalDays = goalDays
            self.points = points
            self.weekStartsOn = weekStartsOn
        }

        /// The first day of the challenge's week holding `date`.
        public func start(holding date: LocalDate, profileWeekStartsOn: Weekday) -> LocalDate {
            date.startOfWeek(startingOn: self.weekStartsOn ?? profileWeekStartsOn)
        }
    }

    /// The daily cap on counted push-ups by level: `daily goal × goalFactor` of the highest tier whose
    /// `fromLevel` the user has reached (spec 001's table; its general formula `goal × (1 + level × 0.1)`
    /// is the same at levels 5, 10 and 15).
    public struct PushupCap: Equatable, Sendable, Codable {
        public var tiers: [Tier]

        public init(tiers: [Tier]) {
            self.tiers = tiers
        }

        public struct Tier: Equatable, Sendable, Codable {
            public var fromLevel: Int
            public var goalFactor: Double

            public init(fromLevel: Int, goalFactor: Double) {
                self.fromLevel = fromLevel
                self.goalFactor = goalFactor
            }
        }

        /// The most push-ups a day counts for a user at `level` with `dailyGoal`.
        public func cap(dailyGoal: Int, level: Int) -> Int {
            let factor = self.tiers.last { $0.fromLevel <= level }?.goalFactor ?? self.tiers.first?.goalFactor ?? 1
            return Int((Double(dailyGoal) * factor).rounded(.down))
        }
    }
}
