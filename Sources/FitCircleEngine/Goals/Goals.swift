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
            guard let stored = try await tx.goal(of: user, id: goal) else {
                throw DomainError.notFound(resource: "goal", id: goal.rawValue)
            }
            guard stored.span == .daily, stored.period == today else {
                throw DomainError.conflict(
                    reason: "Only today's daily goals take progress; this goal is for \(stored.period.iso)."
                )
            }
            let day = try await tx.days(of: user, from: today, to: today).first ?? DailyTracking(date: today)
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
            throw DomainError.conflict(reason: "A check-in goal is met by checking in: POST /api/streaks/checkin.")
        case .workout, .activeDays:
            throw DomainError.conflict(
                reason: "This goal follows the workouts and steps recorded with POST /api/activities."
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
            guard let account = try await tx.user(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            let policy = try await self.rules.of(account, in: tx, at: self.clock.now()).goals
            guard policy.weekly.contains(.steps) else { return nil }
            let next = self.start(of: .weekly, holding: account.localDate(at: self.clock.now())).adding(days: 7)
            let training = try await tx.trainingSettings(of: user) ?? .defaults
            let recent = try await tx.days(
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

    // MARK: Planning and progress

    /// The step goal of `date`, planned now if that day's goals never were (the check-in's look back at
    /// yesterday); none for a day before the account existed, which has no goals to miss.
    func stepGoal(on date: LocalDate, of user: User, in tx: Transaction) async throws -> Goal? {
        guard user.accountDay(date) >= 1 else { return nil }
        try await self.plan(.daily, start: date, of: user, in: tx, replacing: [])
        return try await tx.goals(of: user.id, span: .daily, from: date, to: date).first { $0.kind == .steps }
    }

    /// A new daily push-up goal moves today's and this week's push-up targets not yet met (spec 001,
    /// WEEKLY-01: "Target updates when daily goal changes").
    func followTraining(of user: User.ID, in tx: Transaction) async throws {
        try await self.replanToday(.pushups, of: user, in: tx)
    }

    func replanToday(_ kind: Goal.Kind, of user: User.ID, in tx: Transaction, spans: [Goal.Span] = [.daily, .weekly])
        async throws
    {
        guard let account = try await tx.user(user) else { return }
        let today = account.localDate(at: self.clock.now())
        let policy = try await self.rules.of(account, in: tx, at: self.clock.now()).goals
        for span in spans where (span == .daily ? policy.daily : policy.weekly).contains(kind) {
            let start = self.start(of: span, holding: today)
            // A goal met before the change stays met: it is closed first (goals close when seen met).
            _ = try await self.period(span, start: start, of: account, in: tx)
            try await self.plan(span, start: start, of: account, in: tx, replacing: [kind])
        }
    }

    /// Stores the period's planned goals that are missing, and re-plans the targets of the `replacing`
    /// kinds' goals not yet completed.
    private func plan(_ span: Goal.Span, start: LocalDate, of user: User, in tx: Transaction, replacing: Set<Goal.Kind>)
        async throws
    {
        let existing = try await tx.goals(of: user.id, span: span, from: start, to: start)
        // The person's goal policy: an experiment may set them easier or harder targets.
        let policy = try await self.rules.of(user, in: tx, at: self.clock.now()).goals
        let kinds = span == .daily ? policy.daily : policy.weekly
        // A weight goal exists only for members of weight-loss circles: its absence alone plans nothing.
        guard !replacing.isEmpty || !Set(kinds).subtracting([.weight]).isSubset(of: existing.map(\.kind)) else {
            return
        }
        let training = try await tx.trainingSettings(of: user.id) ?? .defaults
        let accountDay = user.accountDay(start)
        let recent =
            policy.daily.contains(.steps) || policy.weekly.contains(.steps)
            ? try await tx.days(
                of: user.id,
                from: start.adding(days: -policy.steps.baselineDays),
                to: start.adding(days: -1)
            )
            : []
        let weightLoss =
            kinds.contains(.weight)
            ? try await self.weeklyWeightLoss(of: user.id, weekStart: self.start(of: .weekly, holding: start), in: tx)
            : nil
        let plans: [GoalPlanner.Plan]
        switch span {
        case .daily:
            plans = GoalPlanner.daily(
                on: start,
                accountDay: accountDay,
                baseline: .of(user.profile, level: training.level),
                training: training,
                recent: recent,
                weeklyWeightLossKg: weightLoss,
                policy: policy
            )
        case .weekly:
            // The week's step total follows the step goal of its first day.
            let dailySteps = GoalPlanner.dailySteps(
                on: start,
                accountDay: accountDay,
                baseline: .of(user.profile, level: training.level),
                recent: recent,
                policy: policy.steps
            )
            let circleSteps =
                kinds.contains(.steps) ? try await self.circleWeeklySteps(of: user.id, weekStart: start, in: tx) : nil
            plans = GoalPlanner.weekly(
                dailySteps: dailySteps,
                training: training,
                weeklyWeightLossKg: weightLoss,
                circleSteps: circleSteps,
                policy: policy
            )
        }
        var missing: [Goal] = []
        // A weight goal whose circle is gone (or whose target is reached) ends, unless it was met.
        for goal in existing
        where goal.kind == .weight && replacing.contains(.weight) && goal.completedAt == nil
            && !plans.contains(where: { $0.kind == .weight })
        {
            try await tx.deleteGoal(goal.id, of: user.id)
        }
        for plan in plans {
            if let goal = existing.first(where: { $0.kind == plan.kind }) {
                if replacing.contains(goal.kind) && goal.completedAt == nil
                    && (goal.target != plan.target || goal.basis != plan.basis)
                {
                    try await tx.updateTarget(of: goal.id, to: plan.target, basis: plan.basis)
                }
            } else {
                missing.append(
                    Goal(
                        id: self.ids.make(),
                        span: span,
                        period: start,
                        kind: plan.kind,
                        target: plan.target,
                        basis: plan.basis
                    )
                )
            }
        }
        try await tx.insert(missing, of: user.id, at: self.clock.now())
        let personalised = plans.filter { (plan: GoalPlanner.Plan) in plan.kind == .steps && plan.personalised }
        if span == .daily, accountDay == policy.steps.introductoryDays + 1, let steps = personalised.first,
            missing.contains(where: { (goal: Goal) in goal.kind == .steps })
        {
            try await tx.enqueue(
                [try self.announcingPersonalisation(steps, of: user.id)].compactMap { $0 },
                at: self.clock.now()
            )
        }
    }

    /// The day the step goal first follows the user's own baseline is announced (spec 000, Flow 1, day 7:
    /// "Your daily goals are now personalized based on your baseline").
    private func announcingPersonalisation(_ steps: GoalPlanner.Plan, of user: User.ID) throws -> JobRecord? {
        let candidate = NotificationCandidate(
            type: .goalsPersonalized,
            dedupeKey: "goals_personalized",
            data: ["steps": NotificationCopy.count(Int(steps.target))]
        )
        return try Notifications.raising(
            candidate,
            for: user,
            catalog: self.rules.base.notifications,
            ids: self.ids,
            at: self.clock.now()
        )
    }

    /// The period's goals with their progress; a goal seen met for the first time is closed.
    private func period(_ span: Goal.Span, start: LocalDate, of user: User, in tx: Transaction) async throws -> Period {
        let goals = try await tx.goals(of: user.id, span: span, from: start, to: start)
        let length = span == .daily ? 1 : 7
        let dates = (0..<length).map { start.adding(days: $0) }
        let days = goals.isEmpty ? [] : try await tx.days(of: user.id, from: start, to: start.adding(days: length - 1))
        let minimum =
            goals.isEmpty ? 0 : try await self.rules.of(user, in: tx, at: self.clock.now()).goals.activeDayMinimumSteps
        let weightBefore =
            goals.contains { $0.kind == .weight } ? try await self.weightBefore(start, of: user.id, in: tx) : nil
        var progress: [Progress] = []
        for var goal in goals {
            let actual = goal.progress(in: days, activeDayMinimumSteps: minimum, weightBefore: weightBefore)
            if goal.completedAt == nil && actual >= goal.target {
                let now = self.clock.now()
                try await tx.complete(goal.id, at: now)
                goal.completedAt = now
                try await self.rewards.creditGoalMet(goal, of: user, in: tx, now: now)
                try await self.scoring.restate([user.id], in: tx, now: now)
                try await self.analytics.record(
                    .goalCompleted,
                    key: goal.id.rawValue,
                    of: user,
                    at: now,
                    properties: [
                        "goalId": .string(goal.id.rawValue), "span": .string(goal.span.rawValue),
                        "kind": .string(goal.kind.rawValue),
                        "period": .string(goal.period.iso), "target": .number(goal.target),
                    ],
                    in: tx
                )
            }
            let breakdown = dates.map { date in
                (
                    date: date,
                    value: goal.progress(
                        in: days.filter { $0.date == date },
                        activeDayMinimumSteps: minimum,
                        weightBefore: weightBefore
                    )
                )
            }
            progress.append(
                Progress(goal: goal, actual: actual, completed: goal.completedAt != nil, breakdown: breakdown)
            )
        }
        return Period(start: start, goals: progress)
    }

    func locked(_ user: User.ID, in tx: Transaction) async throws -> (User, LocalDate) {
        guard let account = try await tx.lockedUser(user) else {
            throw DomainError.notFound(resource: "user", id: user.rawValue)
        }
        return (account, account.localDate(at: self.clock.now()))
    }
}
