public import FitCircleCore
public import FitCircleStore
import Foundation

/// Daily and weekly goals (spec 000, Features 1 and 2; spec 001, WEEKLY-01…04). A period's goals are
/// planned on its first read (and at 00:00 local by `DayRollover`); their progress is read
/// from the user's days, so it follows the ledger.
public struct Goals: Sendable {
    let store: Store
    let rules: Rules
    let activities: Activities
    let ids: IDGenerator
    let clock: WallClock
    let analytics: EventRecorder
    /// Points a met goal earns move the XP challenges the user is in.
    let scoring: ChallengeScoring
    var rewards: RewardKeeper { RewardKeeper(profile: self.rules.base, ids: self.ids, analytics: self.analytics) }

    /// A goal with its progress.
    public struct Progress: Equatable, Sendable {
        public var goal: Goal
        public var actual: Double
        public var completed: Bool
        /// Each day of a weekly goal's week with what it added; one day for a daily goal.
        public var breakdown: [(date: LocalDate, value: Double)]

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.goal == rhs.goal && lhs.actual == rhs.actual && lhs.completed == rhs.completed
                && lhs.breakdown.map(\.date) == rhs.breakdown.map(\.date)
                && lhs.breakdown.map(\.value) == rhs.breakdown.map(\.value)
        }
    }

    /// One period's goals.
    public struct Period: Equatable, Sendable {
        public var start: LocalDate
        public var goals: [Progress]
    }

    // MARK: Daily

    /// Today's goals in the user's zone, planned if this is the day's first read. A read, not a view: the
    /// server's own reads (planning, reminders) use it.
    public func daily(of user: User.ID) async throws -> Period {
        try await self.current(.daily, of: user, replacing: false)
    }

    /// Today's goals as the caller looks at them: a `goal_viewed` of their day.
    public func daily(viewedBy caller: Caller) async throws -> Period {
        let goals = try await self.daily(of: caller.userID)
        try await self.analytics.recordView(
            .goalViewed,
            of: "goals:daily",
            by: caller,
            at: self.clock.now(),
            properties: ["period": .string("daily")],
            in: self.store
        )
        return goals
    }

    /// Plans today's goals again: targets of goals not yet completed follow the latest data and settings.
    public func generateDaily(of user: User.ID) async throws -> Period {
        try await self.current(.daily, of: user, replacing: true)
    }

    /// The goals of the last `days` days (today included) that were planned, newest first.
    public func dailyHistory(of user: User.ID, days: Int) async throws -> [Period] {
        guard (1...90).contains(days) else { throw ValidationError(field: "days", reason: "must be between 1 and 90") }
        return try await self.history(.daily, of: user, count: days)
    }

    /// Records progress on one of today's goals as an input of the ledger: `value` is the day's total of the
    /// goal's kind as the user counts it (manual steps, water, push-ups) or today's weight.
    public func updateProgress(of goal: Goal.ID, to value: Double, for user: User.ID) async throws -> Progress {
        let now = self.clock.now()
        guard value.isFinite, (0...1_000_000).contains(value) else {
            throw ValidationError(field: "value", reason: "must be between 0 and 1,000,000")
        }
        // One transaction under the user's lock: the increase is computed from the day as it is when written,
        // so two concurrent updates to the same total count it once.
        return try await self.store.transaction { tx in
            let (account, today) = try await self.locked(user, in: tx)
            guard let stored = try await tx.goals.goal(of: user, id: goal) else {
                throw DomainError.notFound(resource: "goal", id: goal.rawValue)
            }
            guard stored.span == .daily, stored.period == today else {
                throw DomainError.refused(
                    Refusal(
                        .periodClosed,
                        "Only today's daily goals take progress; this goal is for \(stored.period.iso)."
                    )
                )
            }
            let day = try await tx.activities.days(of: user, from: today, to: today).first ?? DailyTracking(date: today)
            if let payload = try Self.progressPayload(of: stored.kind, to: value, over: day) {
                let input = ActivityInput(
                    clientEventID: "goal:\(goal.rawValue):\(value)",
                    occurredAt: now,
                    timeZone: account.profile.timeZone,
                    source: .manual,
                    payload: payload
                )
                do {
                    _ = try await self.activities.record([input], for: user, in: tx, now: now)
                } catch let error as ValidationError {
                    // The input's field names are the ledger's; in this request the number is `value`.
                    throw ValidationError(field: "value", reason: error.violations.first?.reason ?? "is not plausible")
                }
            }
            let period = try await self.period(.daily, start: today, of: account, in: tx)
            guard let progress = period.goals.first(where: { $0.goal.id == goal }) else {
                throw DomainError.notFound(resource: "goal", id: goal.rawValue)
            }
            return progress
        }
    }

    /// What the ledger must gain for the day to read `value` (a total as the user counts it, or today's
    /// weight); nil when it already does.
    private static func progressPayload(of kind: Goal.Kind, to value: Double, over day: DailyTracking) throws
        -> ActivityPayload?
    {
        func increase(over current: Double, _ unit: String) throws -> Double {
            guard value >= current else {
                throw ValidationError(
                    field: "value",
                    reason:
                        "cannot be below the \(Int(current)) \(unit) already recorded today; delete an activity to correct it"
                )
            }
            return value - current
        }
        switch kind {
        case .steps:
            let added = Int(try increase(over: Double(day.manualSteps), "manual steps"))
            return added > 0 ? .steps(StepTotals(steps: added)) : nil
        case .water:
            let added = try increase(over: day.waterMilliliters, "ml")
            return added > 0 ? .water(milliliters: added) : nil
        case .pushups:
            let added = Int(try increase(over: Double(day.pushupReps), "push-ups"))
            // About two seconds a push-up: the ledger wants a duration for every workout.
            return added > 0 ? .workout(Workout(type: .pushups, durationSeconds: Double(added) * 2, reps: added)) : nil
        case .weight:
            return .weight(kilograms: value)
        case .checkIn:
            throw DomainError.refused(
                Refusal(.trackedAutomatically, "A check-in goal is met by checking in: POST /api/streaks/checkin.")
            )
        case .workout, .activeDays:
            throw DomainError.refused(
                Refusal(
                    .trackedAutomatically,
                    "This goal follows the workouts and steps recorded with POST /api/activities."
                )
            )
        }
    }

    // MARK: Weekly

    /// This week's goals, planned if this is the week's first read. A read, not a view (`daily(of:)`).
    public func weekly(of user: User.ID) async throws -> Period {
        try await self.current(.weekly, of: user, replacing: false)
    }

    /// This week's goals as the caller looks at them: a `goal_viewed` of their day.
    public func weekly(viewedBy caller: Caller) async throws -> Period {
        let goals = try await self.weekly(of: caller.userID)
        try await self.analytics.recordView(
            .goalViewed,
            of: "goals:weekly",
            by: caller,
            at: self.clock.now(),
            properties: ["period": .string("weekly")],
            in: self.store
        )
        return goals
    }

    public func generateWeekly(of user: User.ID) async throws -> Period {
        try await self.current(.weekly, of: user, replacing: true)
    }

    /// The week's step total the next week would start with if it were planned now, from the days and
    /// circle claims known so far (the weekly digest's "Next Week's Challenge"); nil when the profile sets no
    /// weekly step goal.
    public func nextWeekStepTarget(of user: User.ID) async throws -> Double? {
        return try await self.store.read { tx in
            guard let account = try await tx.users.find(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            let policy = try await self.rules.of(account, in: tx, at: self.clock.now()).goals
            guard policy.weekly.contains(.steps) else { return nil }
            let next = self.start(of: .weekly, holding: account.localDate(at: self.clock.now())).adding(days: 7)
            let training = try await tx.training.settings(of: user) ?? .defaults
            let recent = try await tx.activities.days(
                of: user,
                from: next.adding(days: -policy.steps.baselineDays),
                to: next.adding(days: -1)
            )
            let daily = GoalPlanner.dailySteps(
                on: next,
                accountDay: account.accountDay(next),
                baseline: .of(account.profile, level: training.level),
                recent: recent,
                policy: policy.steps
            )
            let circleSteps = try await self.circleWeeklySteps(of: user, weekStart: next, in: tx)
            return GoalPlanner.weekly(dailySteps: daily, training: training, circleSteps: circleSteps, policy: policy)
                .first { $0.kind == .steps }?.target
        }
    }

    /// The weekly goals of the last `weeks` weeks (this one included) that were planned, newest first.
    public func weeklyHistory(of user: User.ID, weeks: Int) async throws -> [Period] {
        guard (1...52).contains(weeks) else {
            throw ValidationError(field: "weeks", reason: "must be between 1 and 52")
        }
        return try await self.history(.weekly, of: user, count: weeks)
    }

    /// The current day's or week's goals, planned (or with `replacing`, planned again) first.
    private func current(_ span: Goal.Span, of user: User.ID, replacing: Bool) async throws -> Period {
        try await self.store.transaction { tx in
            let (account, today) = try await self.locked(user, in: tx)
            let start = self.start(of: span, holding: today)
            try await self.plan(
                span,
                start: start,
                of: account,
                in: tx,
                replacing: replacing ? Set(Goal.Kind.allCases) : []
            )
            return try await self.period(span, start: start, of: account, in: tx)
        }
    }

    /// The last `count` days or weeks that had goals, newest first.
    private func history(_ span: Goal.Span, of user: User.ID, count: Int) async throws -> [Period] {
        try await self.store.transaction { tx in
            let (account, today) = try await self.locked(user, in: tx)
            let start = self.start(of: span, holding: today)
            var periods: [Period] = []
            for offset in 0..<count {
                let period = try await self.period(
                    span,
                    start: start.adding(days: -offset * (span == .daily ? 1 : 7)),
                    of: account,
                    in: tx
                )
                if !period.goals.isEmpty { periods.append(period) }
            }
            return periods
        }
    }

    /// The first day of the day or week holding `date`.
    func start(of span: Goal.Span, holding date: LocalDate) -> LocalDate {
        span == .daily ? date : date.startOfWeek(startingOn: self.rules.base.week.startsOn)
    }
}
