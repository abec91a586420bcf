public import Foundation

/// What a challenge measures and who wins it (specs 002 and 004): a metric over the participants'
/// activities that pass a filter, aggregated one way, against a goal. Spec 002's six types, spec 004's
/// four and every template are instances of this one rule, scored by one pure function.
public struct ChallengeRule: Equatable, Sendable, Codable {
    public enum Metric: String, CaseIterable, Equatable, Sendable, Codable {
        /// Kilometres.
        case distance
        /// Minutes.
        case duration
        /// Kilocalories.
        case calories
        /// Workouts.
        case workouts
        /// Points (XP) earned in the span.
        case xp
        /// Days with a qualifying workout.
        case activeDays = "active_days"
    }

    public enum Aggregation: String, CaseIterable, Equatable, Sendable, Codable {
        /// The metric summed (workouts counted, days counted once).
        case total
        /// The largest single workout.
        case longest
        /// The best pace of one workout of at least `filter.minDistanceKm` (seconds per kilometre, lower wins).
        case fastestPace = "fastest_pace"
        /// The longest run of consecutive local days with a qualifying workout.
        case consecutiveDays = "consecutive_days"
        /// The weeks of the span (seven days from its start) in which the metric's total reached
        /// `weeklyTarget`: "2,000 calories a week for 4 weeks", where one big week is not four.
        case weeksMet = "weeks_met"
    }

    public enum Goal: String, CaseIterable, Equatable, Sendable, Codable {
        /// The most by the end wins.
        case most
        /// The first to reach `target` wins.
        case firstTo = "first_to"
        /// Everyone who reaches `target` by the end wins.
        case everyoneTo = "everyone_to"
    }

    /// Which workouts count, each judged where its participant was.
    public struct Filter: Equatable, Sendable, Codable {
        /// nil: every type.
        public var workoutTypes: [WorkoutType]?
        /// Started at or after / before this local time of day (in the participant's own zone).
        public var startsAfter: LocalTime?
        public var startsBefore: LocalTime?
        public var minDurationMinutes: Double?
        /// Shorter than this ("under 30 minutes").
        public var maxDurationMinutes: Double?
        public var weekendsOnly: Bool
        /// The least distance a workout needs for its pace to count.
        public var minDistanceKm: Double?

        public init(
            workoutTypes: [WorkoutType]? = nil,
            startsAfter: LocalTime? = nil,
            startsBefore: LocalTime? = nil,
            minDurationMinutes: Double? = nil,
            maxDurationMinutes: Double? = nil,
            weekendsOnly: Bool = false,
            minDistanceKm: Double? = nil
        ) {
            self.workoutTypes = workoutTypes
            self.startsAfter = startsAfter
            self.startsBefore = startsBefore
            self.minDurationMinutes = minDurationMinutes
            self.maxDurationMinutes = maxDurationMinutes
            self.weekendsOnly = weekendsOnly
            self.minDistanceKm = minDistanceKm
        }

        private enum CodingKeys: String, CodingKey {
            case workoutTypes, startsAfter, startsBefore, minDurationMinutes, maxDurationMinutes, weekendsOnly,
                minDistanceKm
        }

        /// Every field optional (a template names only what it narrows).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                workoutTypes: try container.decodeIfPresent([WorkoutType].self, forKey: .workoutTypes),
                startsAfter: try container.decodeIfPresent(LocalTime.self, forKey: .startsAfter),
                startsBefore: try container.decodeIfPresent(LocalTime.self, forKey: .startsBefore),
                minDurationMinutes: try container.decodeIfPresent(Double.self, forKey: .minDurationMinutes),
                maxDurationMinutes: try container.decodeIfPresent(Double.self, forKey: .maxDurationMinutes),
                weekendsOnly: try container.decodeIfPresent(Bool.self, forKey: .weekendsOnly) ?? false,
                minDistanceKm: try container.decodeIfPresent(Double.self, forKey: .minDistanceKm)
            )
        }

        public func admits(_ workout: ChallengeEntry.WorkoutFacts) -> Bool {
            if let types = self.workoutTypes, !types.contains(workout.type) { return false }
            if let after = self.startsAfter, workout.localStart < after { return false }
            if let before = self.startsBefore, workout.localStart >= before { return false }
            let minutes = workout.durationSeconds / 60
            if let least = self.minDurationMinutes, minutes < least { return false }
            if let most = self.maxDurationMinutes, minutes >= most { return false }
            if self.weekendsOnly, workout.weekday != .saturday && workout.weekday != .sunday { return false }
            return true
        }
    }

    public var metric: Metric
    public var aggregation: Aggregation
    public var goal: Goal
    /// In the metric's unit (seconds per kilometre for pace, weeks for `weeks_met`); required unless the
    /// goal is `most`.
    public var target: Double?
    /// `weeks_met`: the metric's total a week must reach to count.
    public var weeklyTarget: Double?
    public var filter: Filter

    public init(
        metric: Metric,
        aggregation: Aggregation = .total,
        goal: Goal = .most,
        target: Double? = nil,
        weeklyTarget: Double? = nil,
        filter: Filter = Filter()
    ) {
        self.metric = metric
        self.aggregation = aggregation
        self.goal = goal
        self.target = target
        self.weeklyTarget = weeklyTarget
        self.filter = filter
    }

    /// Seven days: the week of `weeks_met`, counted from the challenge's start.
    static let week: TimeInterval = 7 * 86_400

    /// Whether a higher value ranks higher (pace: the lower the better; boards store it negated).
    public var higherWins: Bool { self.aggregation != .fastestPace }

    /// A participant's score from their entries in the span starting `start`: the value (as the board
    /// orders it: pace negated) and the instant they reached it, which breaks ties (who got there first).
    /// With a `first_to` goal the value stops at the target, so those who reached it rank by when they did.
    /// nil when nothing counts yet.
    public func score(_ entries: [ChallengeEntry], since start: Date) -> (value: Double, reachedAt: Date)? {
        let ordered = entries.sorted { ($0.at, $0.key) < ($1.at, $1.key) }
        var best: (value: Double, reachedAt: Date)?
        func offer(_ value: Double, _ at: Date) {
            if let current = best, value <= current.value { return }
            best = (value, at)
        }
        switch self.aggregation {
        case .total:
            var sum = 0.0
            var days: Set<LocalDate> = []
            for entry in ordered {
                guard let amount = self.amount(of: entry) else { continue }
                if self.metric == .activeDays {
                    guard days.insert(entry.localDate).inserted else { continue }
                    sum += 1
                } else {
                    sum += amount
                }
                offer(self.capped(sum), entry.at)
            }
        case .longest:
            for entry in ordered { if let amount = self.amount(of: entry) { offer(amount, entry.at) } }
        case .fastestPace:
            for entry in ordered {
                guard case .workout(let workout) = entry.kind, self.filter.admits(workout),
                    let kilometres = workout.distanceKm,
                    kilometres >= max(self.filter.minDistanceKm ?? 0, 0.001), workout.durationSeconds > 0
                else { continue }
                offer(-(workout.durationSeconds / kilometres).rounded(), entry.at)
            }
        case .consecutiveDays:
            var days: Set<LocalDate> = []
            for entry in ordered {
                guard self.amount(of: entry) != nil, days.insert(entry.localDate).inserted else { continue }
                var run = 1
                var back = entry.localDate.adding(days: -1)
                while days.contains(back) {
                    run += 1
                    back = back.adding(days: -1)
                }
                var ahead = entry.localDate.adding(days: 1)
                while days.contains(ahead) {
                    run += 1
                    ahead = ahead.adding(days: 1)
                }
                offer(self.capped(Double(run)), entry.at)
            }
        case .weeksMet:
            guard let weekly = self.weeklyTarget, weekly > 0 else { break }
            var totals: [Int: Double] = [:]
            var met = 0.0
            for entry in ordered {
                guard let amount = self.amount(of: entry) else { continue }
                let week = max(0, Int((entry.at.timeIntervalSince(start) / Self.week).rounded(.down)))
                let before = totals[week, default: 0]
                totals[week] = before + amount
                if before < weekly && before + amount >= weekly {
                    met += 1
                    offer(self.capped(met), entry.at)
                }
            }
        }
        return best.map { (Self.rounded($0.value), $0.reachedAt) }
    }

    /// What one entry adds in the metric, if it counts.
    private func amount(of entry: ChallengeEntry) -> Double? {
        switch entry.kind {
        case .points(let amount):
            return self.metric == .xp ? Double(amount) : nil
        case .workout(let workout):
            guard self.metric != .xp, self.filter.admits(workout) else { return nil }
            switch self.metric {
            case .distance: return workout.distanceKm.map { $0 > 0 ? $0 : nil } ?? nil
            case .duration: return workout.durationSeconds / 60
            case .calories: return workout.calories
            case .workouts, .activeDays: return 1
            case .xp: return nil
            }
        }
    }

    private func capped(_ value: Double) -> Double {
        guard self.goal == .firstTo, let target else { return value }
        return min(value, target)
    }

    /// Board values to a thousandth (metres, seconds).
    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    /// The value a reader sees (pace as seconds per kilometre).
    public func shown(_ boardValue: Double) -> Double { self.higherWins ? boardValue : -boardValue }

    /// Whether a participant who finished with `shown` (nil: nothing counted) completed the challenge: reached
    /// the target of a target goal, or counted anything towards a most-wins one.
    public func completes(_ shown: Double?) -> Bool {
        guard let shown else { return false }
        if self.goal != .most, let target { return shown >= target }
        return shown != 0
    }

    /// Whether a final value meets the target (pace: at or under it).
    public func reachesTarget(_ boardValue: Double) -> Bool {
        guard let target else { return false }
        return self.higherWins ? boardValue >= target : -boardValue <= target
    }

    /// The unit values are in, as the API names it.
    public var unit: String {
        if self.aggregation == .fastestPace { return "seconds_per_km" }
        if self.aggregation == .consecutiveDays { return "days" }
        if self.aggregation == .weeksMet { return "weeks" }
        return switch self.metric {
        case .distance: "km"
        case .duration: "minutes"
        case .calories: "kcal"
        case .workouts: "workouts"
        case .xp: "xp"
        case .activeDays: "days"
        }
    }
}

/// One thing a participant did in a challenge's span, as the rule scores it.
public struct ChallengeEntry: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case workout(WorkoutFacts)
        /// Points credited (XP challenges).
        case points(Int)
    }

    /// What the filter reads of a workout: its type, size, and its start on the participant's own clock.
    public struct WorkoutFacts: Equatable, Sendable {
        public var type: WorkoutType
        public var durationSeconds: Double
        public var distanceKm: Double?
        public var calories: Double?
        public var localStart: LocalTime
        public var weekday: Weekday

        public init(
            type: WorkoutType,
            durationSeconds: Double,
            distanceKm: Double?,
            calories: Double?,
            localStart: LocalTime,
            weekday: Weekday
        ) {
            self.type = type
            self.durationSeconds = durationSeconds
            self.distanceKm = distanceKm
            self.calories = calories
            self.localStart = localStart
            self.weekday = weekday
        }
    }

    /// When it counts: a workout when it finished (who reached 5 km first), points when credited.
    public var at: Date
    public var localDate: LocalDate
    public var kind: Kind
    /// Orders entries of the same instant (an event or ledger id).
    public var key: String

    public init(at: Date, localDate: LocalDate, kind: Kind, key: String) {
        self.at = at
        self.localDate = localDate
        self.kind = kind
        self.key = key
    }

    /// A workout started at `startedAt` in `zone`.
    public static func workout(_ workout: Workout, startedAt: Date, in zone: TimeZone, key: String) -> ChallengeEntry {
        let date = LocalDate(startedAt, in: zone)
        return ChallengeEntry(
            at: startedAt.addingTimeInterval(workout.durationSeconds),
            localDate: date,
            kind: .workout(
                WorkoutFacts(
                    type: workout.type,
                    durationSeconds: workout.durationSeconds,
                    distanceKm: workout.distanceMeters.map { $0 / 1000 },
                    calories: workout.calories,
                    localStart: LocalTime(startedAt, in: zone),
                    weekday: date.weekday
                )
            ),
            key: key
        )
    }
}
