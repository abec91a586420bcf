public import FitCircleCore
public import FitCircleStore
import Foundation

/// The daily check-in and the streak it keeps (spec 000, Feature 4), or the profile's other streaks
/// (weekly push-ups, app opens): where it stands, its ledger, freezes and milestones.
public struct Streaks: Sendable {
    let store: Store
    let rules: Rules
    let activities: Activities
    let goals: Goals
    let clock: WallClock
    let keeper: StreakKeeper

    init(store: Store, rules: Rules, activities: Activities, goals: Goals, clock: WallClock, analytics: EventRecorder) {
        self.store = store
        self.rules = rules
        self.activities = activities
        self.goals = goals
        self.clock = clock
        self.keeper = StreakKeeper(rules: rules, analytics: analytics)
    }

    /// Where a streak stands, with its recent ledger.
    public struct Summary: Equatable, Sendable {
        public var policy: StreakPolicy
        /// The week's first day the streak's weeks and weekly freezes follow.
        public var weekStartsOn: Weekday
        /// The zone the person's days are counted in (their profile's).
        public var timeZone: String
        public var standing: Streak.Standing
        /// The first day of the open period.
        public var period: LocalDate
        /// The first day of the next freeze allowance.
        public var freezesRenewOn: LocalDate
        /// The ledger's last entries, newest first.
        public var recent: [Streak.Entry]
    }

    /// What a check-in answers: the acknowledgement screen and the streak it made.
    public struct CheckInResult: Equatable, Sendable {
        public var date: LocalDate
        public var late: Bool
        /// The day before the check-in's, as the user acknowledges it.
        public var previousDay: DailyTracking
        /// That day's step goal, when the profile sets one.
        public var previousDayStepGoal: Double?
        /// How the user said they feel about that day.
        public var sentiment: CheckIn.Sentiment?
        public var summary: Summary
        /// The milestone this check-in reached.
        public var milestone: StreakPolicy.Milestone?
        public var comeback: Bool

        public var message: String {
            if let milestone { return "🎉 \(milestone.badge) unlocked!" }
            if self.comeback { return "You're back! Your streak starts again today." }
            let count = self.summary.standing.current
            return "\(count)-\(self.summary.policy.period.rawValue) streak. Keep it going!"
        }
    }

    /// What a check-in says.
    public struct CheckInInput: Equatable, Sendable {
        public var checkIn: CheckIn
        public var weightKg: Double?
        /// The day it is for; today in the user's zone when absent. Yesterday's may be claimed within the grace window.
        public var date: LocalDate?

        public init(checkIn: CheckIn, weightKg: Double? = nil, date: LocalDate? = nil) {
            self.checkIn = checkIn
            self.weightKg = weightKg
            self.date = date
        }
    }

    public func current(of user: User.ID) async throws -> Summary {
        try await self.store.transaction { tx in
            let account = try await Self.lock(user, in: tx)
            return try await self.summary(
                of: account,
                view: try await self.keeper.refresh(account, in: tx, now: self.clock.now()),
                in: tx
            )
        }
    }

    /// The ledger from `from` to `to` (period starts), oldest first; by default the last 30 days.
    public func history(of user: User.ID, from: LocalDate?, to: LocalDate?) async throws -> [Streak.Entry] {
        try await self.store.transaction { tx in
            let account = try await Self.lock(user, in: tx)
            let view = try await self.keeper.refresh(account, in: tx, now: self.clock.now())
            let (first, last) = try LocalDate.queried(
                from: from,
                to: to,
                today: view.today,
                defaultDays: 30,
                maximumDays: 731
            )
            return try await tx.streaks.entries(of: user, from: first, to: last)
        }
    }

    /// Every milestone of the profile, with the day it was first reached.
    public func milestones(of user: User.ID) async throws -> [(
        milestone: StreakPolicy.Milestone, reachedOn: LocalDate?
    )] {
        try await self.store.transaction { tx in
            let account = try await Self.lock(user, in: tx)
            let view = try await self.keeper.refresh(account, in: tx, now: self.clock.now())
            let firsts = try await tx.streaks.firstMilestones(of: user)
            return view.policy.milestones.map { milestone in
                // A milestone reached in the open period shows at once; the ledger records it when the period closes.
                let open = view.standing.met && view.standing.current == milestone.count ? view.period : nil
                return (milestone, firsts[milestone.count] ?? open)
            }
        }
    }

    /// Spends a freeze on the open period (it is only used if the period ends without counting).
    public func freeze(for user: User.ID) async throws -> Summary {
        try await self.store.transaction { tx in
            let account = try await Self.lock(user, in: tx)
            let now = self.clock.now()
            let view = try await self.keeper.refresh(account, in: tx, now: now)
            let unit = view.policy.period.rawValue
            if view.standing.freezeRequested {
                throw DomainError.refused(Refusal(.freezeNotNeeded, "This \(unit) is already frozen."))
            }
            if view.standing.met {
                throw DomainError.refused(
                    Refusal(.freezeNotNeeded, "This \(unit) already counts for your streak; no freeze is needed.")
                )
            }
            if view.standing.current == 0 {
                throw DomainError.refused(Refusal(.streakNotProtectable, "There is no streak to protect yet."))
            }
            if view.state.missed > 0 {
                // "Never miss twice": a freeze covers only the first missed \(unit) in a row.
                throw DomainError.refused(
                    Refusal(
                        .streakNotProtectable,
                        "The last \(unit) was already missed; only counting this \(unit) keeps the streak."
                    )
                )
            }
            if view.standing.freezesLeft == 0 {
                let next = self.renewal(after: view.period, policy: view.policy)
                throw DomainError.refused(
                    Refusal(
                        .noFreezeLeft,
                        "No freezes left; the next one comes on \(next.iso).",
                        facts: ["nextFreezeOn": .text(next.iso)]
                    )
                )
            }
            try await tx.streaks.requestFreeze(of: user, for: view.period, at: now)
            return try await self.summary(
                of: account,
                view: try await self.keeper.refresh(account, in: tx, now: now),
                in: tx
            )
        }
    }

    /// Records the day's check-in (and the weight given with it) and answers the acknowledgement.
    public func checkIn(_ input: CheckInInput, for user: User.ID) async throws -> CheckInResult {
        let now = self.clock.now()
        // One transaction under the user's lock: the day is judged, the check-in (and its weight) written and
        // the streak read back together, so nothing can change between them.
        return try await self.store.transaction { tx in
            let account = try await Self.lock(user, in: tx)
            let today = account.localDate(at: now)
            let date = input.date ?? today
            let grace = try await self.rules.of(account, in: tx, at: now).streaks.checkInGraceDays
            var validator = Validator()
            validator.check(
                date <= today,
                "date",
                "must not be after today (\(today.iso) in \(account.profile.timeZone))"
            )
            validator.check(
                date >= today.adding(days: -grace),
                "date",
                grace == 0 ? "must be today" : "must be within \(grace) day\(grace == 1 ? "" : "s") before today"
            )
            try validator.throwIfInvalid()

            var inputs = [
                ActivityInput(
                    clientEventID: CheckIn.clientEventID(for: date),
                    occurredAt: now,
                    timeZone: account.profile.timeZone,
                    source: .app,
                    payload: .checkIn(input.checkIn),
                    date: date
                )
            ]
            if let weight = input.weightKg {
                inputs.append(
                    ActivityInput(
                        clientEventID: CheckIn.clientEventID(for: date) + ":weight",
                        occurredAt: now,
                        timeZone: account.profile.timeZone,
                        source: .manual,
                        payload: .weight(kilograms: weight)
                    )
                )
            }
            let alreadyCheckedIn = DomainError.refused(
                Refusal(.alreadyCheckedIn, "You already checked in for \(date.iso).")
            )
            do {
                // The same check-in sent again at the same instant is a replay of the ledger, but still a second check-in.
                guard case .created = try await self.activities.record(inputs, for: user, in: tx, now: now)[0] else {
                    throw alreadyCheckedIn
                }
            } catch DomainError.conflict {
                throw alreadyCheckedIn
            }
            let view = try await self.keeper.refresh(account, in: tx, now: now)
            let previous = date.adding(days: -1)
            let days = try await tx.activities.days(of: user, from: previous, to: date)
            let previousDay = days.first { $0.date == previous } ?? DailyTracking(date: previous)
            let checkedDay = days.first { $0.date == date }
            let previousGoal = try await self.goals.stepGoal(on: previous, of: account, in: tx)
            // A late claim closes a past period: its milestone is in the ledger. Today's shows in the standing.
            let closed = try await tx.streaks.entries(
                of: user,
                from: Streak.period(of: date, policy: view.policy, weekStartsOn: self.rules.base.week.startsOn),
                to: view.today
            )
            let milestone =
                view.standing.met
                ? view.policy.milestones.first { $0.count == view.standing.current && date >= view.period }
                : nil
            return CheckInResult(
                date: date,
                late: checkedDay?.checkedInLate ?? false,
                previousDay: previousDay,
                previousDayStepGoal: previousGoal?.target,
                sentiment: input.checkIn.sentiment,
                summary: try await self.summary(of: account, view: view, in: tx),
                milestone: milestone ?? closed.compactMap(\.milestone).last,
                comeback: view.standing.comeback || closed.contains(where: \.comeback)
            )
        }
    }

    private func summary(of user: User, view: StreakKeeper.View, in tx: Transaction) async throws -> Summary {
        let recent = try await tx.streaks.entries(of: user.id, from: view.today.adding(days: -30), to: view.today)
        return Summary(
            policy: view.policy,
            weekStartsOn: self.rules.base.week.startsOn,
            timeZone: user.profile.timeZone,
            standing: view.standing,
            period: view.period,
            freezesRenewOn: self.renewal(after: view.period, policy: view.policy),
            recent: recent.reversed()
        )
    }

    /// The first day of the freeze allowance after the one holding `period`.
    private func renewal(after period: LocalDate, policy: StreakPolicy) -> LocalDate {
        let start = Streak.allowancePeriod(of: period, policy: policy, weekStartsOn: self.rules.base.week.startsOn)
        switch policy.freezes.per {
        case .week: return start.adding(days: 7)
        case .month: return start.adding(days: 31).startOfMonth
        }
    }

    private static func lock(_ user: User.ID, in tx: Transaction) async throws -> User {
        guard let account = try await tx.users.locked(user) else {
            throw DomainError.notFound(resource: "user", id: user.rawValue)
        }
        return account
    }
}
