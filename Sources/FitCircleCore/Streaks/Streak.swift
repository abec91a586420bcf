/// A streak as of the close of its last evaluated period. Periods are closed in order, one at a time, by
/// `Streak.close`; the same periods closed lazily on read or by a scheduled job give the same state.
public struct Streak: Equatable, Sendable, Codable {
    /// Consecutive counted periods.
    public var count: Int
    public var longest: Int
    /// Consecutive missed periods since the last counted one, a frozen one included.
    public var missed: Int
    /// The allowance period `freezesUsed` belongs to (a week or month start).
    public var allowancePeriod: LocalDate?
    public var freezesUsed: Int
    /// The streak was reset and nothing has counted since: the next counted period is a comeback.
    public var resetPending: Bool

    public init(
        count: Int = 0,
        longest: Int = 0,
        missed: Int = 0,
        allowancePeriod: LocalDate? = nil,
        freezesUsed: Int = 0,
        resetPending: Bool = false
    ) {
        self.count = count
        self.longest = longest
        self.missed = missed
        self.allowancePeriod = allowancePeriod
        self.freezesUsed = freezesUsed
        self.resetPending = resetPending
    }

    /// What a period holds when it closes.
    public struct Activity: Equatable, Sendable {
        /// Check-ins, app opens or push-ups in the period.
        public var progress: Int
        /// What the period needs to count (1 for a daily check-in; the weekly goal for push-ups).
        public var target: Int
        /// The period counted only thanks to a check-in sent after it ended (within the grace window).
        public var late: Bool
        /// The user asked for a freeze for this period.
        public var freezeRequested: Bool

        public init(progress: Int, target: Int = 1, late: Bool = false, freezeRequested: Bool = false) {
            self.progress = progress
            self.target = target
            self.late = late
            self.freezeRequested = freezeRequested
        }

        public var isMet: Bool { self.target > 0 && self.progress >= self.target }
    }

    /// What became of a period: the row of the streak ledger, so "why is my streak 14?" has an answer.
    public struct Entry: Equatable, Sendable, Codable {
        public enum Status: String, CaseIterable, Equatable, Sendable, Codable {
            case active, frozen, missed, repaired, reset
        }

        /// The period's first day.
        public var period: LocalDate
        public var status: Status
        public var reason: String
        /// The streak after this period; a late change re-closes the periods after it from here.
        public var state: Streak
        /// A comeback after a reset ("You're back!").
        public var comeback: Bool
        /// The milestone this period reached for the first time in this run of the streak.
        public var milestone: StreakPolicy.Milestone?

        public init(
            period: LocalDate,
            status: Status,
            reason: String,
            state: Streak,
            comeback: Bool = false,
            milestone: StreakPolicy.Milestone? = nil
        ) {
            self.period = period
            self.status = status
            self.reason = reason
            self.state = state
            self.comeback = comeback
            self.milestone = milestone
        }

        /// The streak after this period.
        public var count: Int { self.state.count }
    }

    /// Closes one period. Returns no entry for a period that changes nothing worth recording (no streak to
    /// keep and nothing done).
    public func close(_ period: LocalDate, with activity: Activity, policy: StreakPolicy, weekStartsOn: Weekday) -> (
        Streak, Entry?
    ) {
        var next = self.rolledOver(to: period, policy: policy, weekStartsOn: weekStartsOn)
        let freezeLeft = next.freezesUsed < policy.freezes.count
        func entry(
            _ status: Entry.Status,
            _ reason: String,
            comeback: Bool = false,
            milestone: StreakPolicy.Milestone? = nil
        ) -> (Streak, Entry?) {
            (
                next,
                Entry(
                    period: period,
                    status: status,
                    reason: reason,
                    state: next,
                    comeback: comeback,
                    milestone: milestone
                )
            )
        }

        if activity.isMet {
            next.count += 1
            next.longest = max(next.longest, next.count)
            next.missed = 0
            let comeback = next.resetPending
            next.resetPending = false
            let milestone = policy.milestones.first { $0.count == next.count }
            let what = Self.describe(activity, basis: policy.basis)
            return activity.late
                ? entry(
                    .repaired,
                    "\(what), claimed late within the grace window",
                    comeback: comeback,
                    milestone: milestone
                )
                : entry(.active, what, comeback: comeback, milestone: milestone)
        }
        guard next.count > 0 else { return (next, nil) }
        if activity.progress > 0 && policy.shortfallKeepsStreak {
            let what = Self.describe(activity, basis: policy.basis)
            if freezeLeft && (activity.freezeRequested || policy.freezes.automatic == .onShortfall) {
                next.freezesUsed += 1
                next.missed = 0
                return entry(
                    .frozen,
                    "\(what), short of the goal: a freeze was applied\(activity.freezeRequested ? " on request" : " automatically")"
                )
            }
            next.missed = 0
            return entry(.missed, "\(what), short of the goal; the streak is kept because the period was not empty")
        }
        // "Never miss twice": a frozen period still counts as missed, so a freeze covers only the first
        // missed period in a row, and the next miss resets whether or not a freeze is left (a new allowance
        // after the week boundary included).
        let firstMiss = next.missed == 0
        next.missed += 1
        if firstMiss && freezeLeft && (activity.freezeRequested || policy.freezes.automatic == .onMiss) {
            next.freezesUsed += 1
            return entry(
                .frozen,
                activity.freezeRequested ? "freeze used on request" : "missed: a freeze was applied automatically"
            )
        }
        if next.missed >= policy.resetAfterMissed {
            let streak = next.count
            next.count = 0
            next.resetPending = true
            return entry(
                .reset,
                "\(next.missed) \(policy.period == .day ? "day" : "week")\(next.missed == 1 ? "" : "s") missed in a row: the \(streak)-\(policy.period) streak was reset"
            )
        }
        return entry(.missed, "nothing counted and no freeze left: one more missed \(policy.period) resets the streak")
    }

    /// Where the streak stands during a period that has not closed yet: what it shows now.
    public struct Standing: Equatable, Sendable {
        /// The streak including this period if it already counts.
        public var current: Int
        public var longest: Int
        /// The period already counts.
        public var met: Bool
        /// Freezes left for this period, after any the user asked for.
        public var freezesLeft: Int
        /// The user asked for this period to be frozen.
        public var freezeRequested: Bool
        /// Closing the period as it stands would cost the streak (a miss or a reset, no freeze to cover it).
        public var atRisk: Bool
        /// This period counts after a reset ("You're back!").
        public var comeback: Bool
    }

    public func standing(in period: LocalDate, with activity: Activity, policy: StreakPolicy, weekStartsOn: Weekday)
        -> Standing
    {
        let (after, entry) = self.close(period, with: activity, policy: policy, weekStartsOn: weekStartsOn)
        let met = activity.isMet
        return Standing(
            current: met ? after.count : self.count,
            longest: max(self.longest, met ? after.count : 0),
            met: met,
            freezesLeft: max(
                0,
                self.freezesLeft(for: period, policy: policy, weekStartsOn: weekStartsOn)
                    - (activity.freezeRequested && !met ? 1 : 0)
            ),
            freezeRequested: activity.freezeRequested,
            atRisk: !met && self.count > 0 && (entry?.status == .missed || entry?.status == .reset),
            comeback: met && self.resetPending
        )
    }

    /// Freezes still available for a period starting on `period`.
    public func freezesLeft(for period: LocalDate, policy: StreakPolicy, weekStartsOn: Weekday) -> Int {
        max(
            0,
            policy.freezes.count - self.rolledOver(to: period, policy: policy, weekStartsOn: weekStartsOn).freezesUsed
        )
    }

    /// The state with the freeze allowance renewed if `period` falls in a new allowance period.
    private func rolledOver(to period: LocalDate, policy: StreakPolicy, weekStartsOn: Weekday) -> Streak {
        let allowance = Self.allowancePeriod(of: period, policy: policy, weekStartsOn: weekStartsOn)
        guard allowance != self.allowancePeriod else { return self }
        var next = self
        next.allowancePeriod = allowance
        next.freezesUsed = 0
        return next
    }

    /// The first day of the period that holds `date`.
    public static func period(of date: LocalDate, policy: StreakPolicy, weekStartsOn: Weekday) -> LocalDate {
        policy.period == .day ? date : date.startOfWeek(startingOn: weekStartsOn)
    }

    /// The first day of the period after the one starting on `period`.
    public static func period(after period: LocalDate, policy: StreakPolicy) -> LocalDate {
        period.adding(days: policy.period == .day ? 1 : 7)
    }

    /// The first day of the period before the one starting on `period`.
    public static func period(before period: LocalDate, policy: StreakPolicy) -> LocalDate {
        period.adding(days: policy.period == .day ? -1 : -7)
    }

    /// The first day of the freeze-allowance period that holds `date`.
    public static func allowancePeriod(of date: LocalDate, policy: StreakPolicy, weekStartsOn: Weekday) -> LocalDate {
        policy.freezes.per == .week ? date.startOfWeek(startingOn: weekStartsOn) : date.startOfMonth
    }

    private static func describe(_ activity: Activity, basis: StreakPolicy.Basis) -> String {
        switch basis {
        case .checkIn: "checked in"
        case .appOpen: "opened the app"
        case .pushups: "\(activity.progress) of \(activity.target) push-ups"
        }
    }
}

extension Streak.Activity {
    /// What each period holds, from the user's days and the periods they asked a freeze for: the pure half
    /// of the streak ledger, shared with what-if simulation.
    public static func byPeriod(
        days: [DailyTracking],
        freezeRequests: Set<LocalDate>,
        policy: StreakPolicy,
        weekStartsOn: Weekday,
        nothing: Streak.Activity
    ) -> [LocalDate: Streak.Activity] {
        var activities: [LocalDate: Streak.Activity] = [:]
        for day in days {
            let period = Streak.period(of: day.date, policy: policy, weekStartsOn: weekStartsOn)
            var activity = activities[period] ?? nothing
            activity.progress += policy.basis.progress(of: day)
            if policy.basis == .checkIn && day.checkedIn { activity.late = day.checkedInLate }
            activities[period] = activity
        }
        for period in freezeRequests {
            var activity = activities[period] ?? nothing
            activity.freezeRequested = true
            activities[period] = activity
        }
        return activities
    }
}
