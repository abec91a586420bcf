public import FitCircleCore
public import FitCircleStore
public import Foundation

/// What-if (issue 24): replays each person's recorded days under another rule profile, reading only, and
/// says what would have changed against the same replay under the app's own profile — streak periods kept,
/// frozen and lost, milestones, step goals met and the points they earn, and the scheduled notifications
/// the plan would have made. Both sides are replayed by the same code (`Streak.close`, `GoalPlanner`), so
/// the difference is the profiles' alone.
public struct Simulation: Sendable {
    let store: Store
    let actual: RuleProfile
    let clock: WallClock

    public init(store: Store, actual: RuleProfile, clock: WallClock) {
        self.store = store
        self.actual = actual
        self.clock = clock
    }

    /// One profile's totals over everyone replayed.
    public struct Outcome: Equatable, Sendable {
        /// Streak periods that counted.
        public var periodsKept = 0
        /// Periods a freeze covered.
        public var freezesUsed = 0
        /// Streaks lost: a reset of a streak that was going.
        public var streaksLost = 0
        public var milestonesReached = 0
        /// The longest streak anyone reached, and everyone's streak at the end, added up.
        public var longestStreak = 0
        public var currentStreaks = 0
        public var stepGoals = 0
        public var stepGoalsMet = 0
        /// What the met goals earn (`rewards.goalMet`).
        public var goalPoints = 0
        /// Scheduled notifications the daily plan makes (before preferences, quiet hours and the day's
        /// events decide whether each goes out): the scheduled types of each day, non-critical ones within
        /// the day's budget.
        public var scheduledNotifications = 0
    }

    public struct Report: Equatable, Sendable {
        public var from: LocalDate
        public var to: LocalDate
        public var people: Int
        public var actual: Outcome
        public var candidate: Outcome
        /// People whose streak the actual profile lost and the candidate would have kept going, and the reverse.
        public var keptOnlyByCandidate: [User.ID]
        public var keptOnlyByActual: [User.ID]
    }

    /// Replays everyone with recorded activity from `from` (default: 90 days before `to`) to `to` (default:
    /// yesterday, UTC), telling `progress` after each person.
    public func run(
        candidate: RuleProfile,
        from: LocalDate?,
        to: LocalDate?,
        progress: @Sendable (_ done: Int, _ of: Int) -> Void = { _, _ in }
    ) async throws -> Report {
        let last = to ?? LocalDate(self.clock.now(), in: .gmt).adding(days: -1)
        let first = from ?? last.adding(days: -89)
        guard first <= last else { throw ValidationError(field: "from", reason: "must not be after to") }
        guard candidate.streaks.basis == self.actual.streaks.basis,
            candidate.streaks.period == self.actual.streaks.period
        else {
            throw ValidationError(
                field: "profile",
                reason:
                    "must keep the streak's basis and period (\(self.actual.streaks.basis.rawValue), \(self.actual.streaks.period.rawValue)): the history is of those"
            )
        }
        let users = try await self.store.read { tx in try await tx.activities.usersWithActivities() }
        var report = Report(
            from: first,
            to: last,
            people: 0,
            actual: Outcome(),
            candidate: Outcome(),
            keptOnlyByCandidate: [],
            keptOnlyByActual: []
        )
        for (index, id) in users.enumerated() {
            let history = try await self.store.read { tx -> History? in
                // From the range's first day, not the account's: a history moved in from an app predates it.
                guard let user = try await tx.users.find(id) else { return nil }
                let start = first
                let lookback = max(self.actual.goals.steps.baselineDays, candidate.goals.steps.baselineDays)
                return History(
                    user: user,
                    start: start,
                    end: last,
                    days: try await tx.activities.days(of: id, from: start.adding(days: -lookback), to: last),
                    freezes: try await tx.streaks.freezeRequests(of: id, from: start, to: last),
                    training: try await tx.training.settings(of: id) ?? .defaults
                )
            }
            if let history {
                report.people += 1
                let actualLost = Self.replay(history, under: self.actual, into: &report.actual)
                let candidateLost = Self.replay(history, under: candidate, into: &report.candidate)
                if actualLost && !candidateLost { report.keptOnlyByCandidate.append(id) }
                if candidateLost && !actualLost { report.keptOnlyByActual.append(id) }
            }
            progress(index + 1, users.count)
        }
        return report
    }

    /// A person's recorded history over the range (with the days before it that goal baselines look at).
    struct History: Sendable {
        var user: User
        var start: LocalDate
        var end: LocalDate
        var days: [DailyTracking]
        var freezes: Set<LocalDate>
        var training: TrainingSettings
    }

    /// Replays one person under `profile`, adding to `outcome`; answers whether a going streak was lost on the way.
    static func replay(_ history: History, under profile: RuleProfile, into outcome: inout Outcome) -> Bool {
        let policy = profile.streaks
        let weekStart = profile.week.startsOn
        let inRange = history.days.filter { $0.date >= history.start }
        let target = policy.basis == .pushups ? history.training.weeklyGoal : 1
        let nothing = Streak.Activity(progress: 0, target: target)
        let activities = Streak.Activity.byPeriod(
            days: inRange,
            freezeRequests: history.freezes,
            policy: policy,
            weekStartsOn: weekStart,
            nothing: nothing
        )
        var state = Streak()
        var lost = false
        var period = Streak.period(of: history.start, policy: policy, weekStartsOn: weekStart)
        let end = Streak.period(of: history.end, policy: policy, weekStartsOn: weekStart)
        while period <= end {
            let before = state.count
            let (next, entry) = state.close(
                period,
                with: activities[period] ?? nothing,
                policy: policy,
                weekStartsOn: weekStart
            )
            state = next
            switch entry?.status {
            case .active?, .repaired?: outcome.periodsKept += 1
            case .frozen?: outcome.freezesUsed += 1
            case .reset? where before > 0:
                outcome.streaksLost += 1
                lost = true
            default: break
            }
            if entry?.milestone != nil { outcome.milestonesReached += 1 }
            period = Streak.period(after: period, policy: policy)
        }
        outcome.longestStreak = max(outcome.longestStreak, state.longest)
        outcome.currentStreaks += state.count

        let byDate = Dictionary(history.days.map { ($0.date, $0) }, uniquingKeysWith: { first, _ in first })
        let created = history.user.localDate(at: history.user.createdAt)
        var date = history.start
        while date <= history.end {
            if profile.goals.daily.contains(.steps) {
                let recent = history.days.filter {
                    $0.date >= date.adding(days: -profile.goals.steps.baselineDays) && $0.date < date
                }
                let plan = GoalPlanner.dailySteps(
                    on: date,
                    accountDay: date.days(since: created) + 1,
                    baseline: .of(history.user.profile, level: history.training.level),
                    recent: recent,
                    policy: profile.goals.steps
                )
                outcome.stepGoals += 1
                if Double(byDate[date]?.steps ?? 0) >= plan.target {
                    outcome.stepGoalsMet += 1
                    outcome.goalPoints += profile.rewards.goalMet ?? 0
                }
            }
            let scheduled = ReminderPlanner.types(on: date, in: profile)
            outcome.scheduledNotifications +=
                scheduled.filter(\.critical).count
                + min(
                    scheduled.filter { !$0.critical && !$0.outsideBudget }.count,
                    profile.notifications.nonCriticalPerDay
                )
                + scheduled.filter { !$0.critical && $0.outsideBudget }.count
            date = date.adding(days: 1)
        }
        return lost
    }
}
