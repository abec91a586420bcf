public import FitCircleCore
public import FitCircleStore
import Foundation

/// Planning goals and following progress: each period's goals planned from the profile and the person's
/// training, re-planned when training changes.
extension Goals {
    /// The step goal of `date`, planned now if that day's goals never were (the check-in's look back at
    /// yesterday); none for a day before the account existed, which has no goals to miss.
    func stepGoal(on date: LocalDate, of user: User, in tx: Transaction) async throws -> Goal? {
        guard user.accountDay(date) >= 1 else { return nil }
        try await self.plan(.daily, start: date, of: user, in: tx, replacing: [])
        return try await tx.goals.list(of: user.id, span: .daily, from: date, to: date).first { $0.kind == .steps }
    }

    /// A new daily push-up goal moves today's and this week's push-up targets not yet met (spec 001,
    /// WEEKLY-01: "Target updates when daily goal changes").
    func followTraining(of user: User.ID, in tx: Transaction) async throws {
        try await self.replanToday(.pushups, of: user, in: tx)
    }

    func replanToday(_ kind: Goal.Kind, of user: User.ID, in tx: Transaction, spans: [Goal.Span] = [.daily, .weekly])
        async throws
    {
        guard let account = try await tx.users.find(user) else { return }
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
    func plan(_ span: Goal.Span, start: LocalDate, of user: User, in tx: Transaction, replacing: Set<Goal.Kind>)
        async throws
    {
        let existing = try await tx.goals.list(of: user.id, span: span, from: start, to: start)
        // The person's goal policy: an experiment may set them easier or harder targets.
        let policy = try await self.rules.of(user, in: tx, at: self.clock.now()).goals
        let kinds = span == .daily ? policy.daily : policy.weekly
        // A weight goal exists only for members of weight-loss circles: its absence alone plans nothing.
        guard !replacing.isEmpty || !Set(kinds).subtracting([.weight]).isSubset(of: existing.map(\.kind)) else {
            return
        }
        let training = try await tx.training.settings(of: user.id) ?? .defaults
        let accountDay = user.accountDay(start)
        let recent =
            policy.daily.contains(.steps) || policy.weekly.contains(.steps)
            ? try await tx.activities.days(
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
            try await tx.goals.delete(goal.id, of: user.id)
        }
        for plan in plans {
            if let goal = existing.first(where: { $0.kind == plan.kind }) {
                if replacing.contains(goal.kind) && goal.completedAt == nil
                    && (goal.target != plan.target || goal.basis != plan.basis)
                {
                    try await tx.goals.updateTarget(of: goal.id, to: plan.target, basis: plan.basis)
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
        try await tx.goals.insert(missing, of: user.id, at: self.clock.now())
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
    func period(_ span: Goal.Span, start: LocalDate, of user: User, in tx: Transaction) async throws -> Period {
        let goals = try await tx.goals.list(of: user.id, span: span, from: start, to: start)
        let length = span == .daily ? 1 : 7
        let dates = (0..<length).map { start.adding(days: $0) }
        let days =
            goals.isEmpty
            ? [] : try await tx.activities.days(of: user.id, from: start, to: start.adding(days: length - 1))
        let minimum =
            goals.isEmpty ? 0 : try await self.rules.of(user, in: tx, at: self.clock.now()).goals.activeDayMinimumSteps
        let weightBefore =
            goals.contains { $0.kind == .weight } ? try await self.weightBefore(start, of: user.id, in: tx) : nil
        var progress: [Progress] = []
        for var goal in goals {
            let actual = goal.progress(in: days, activeDayMinimumSteps: minimum, weightBefore: weightBefore)
            if goal.completedAt == nil && actual >= goal.target {
                let now = self.clock.now()
                try await tx.goals.complete(goal.id, at: now)
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
        guard let account = try await tx.users.locked(user) else {
            throw DomainError.notFound(resource: "user", id: user.rawValue)
        }
        return (account, account.localDate(at: self.clock.now()))
    }
}
