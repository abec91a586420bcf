import FitCircleCore
import FitCircleStore
import Foundation

/// Keeps a user's streak ledger current inside the caller's transaction: closes the periods that ended
/// since the last look (lazily on read, and at 00:05 local by `DayRollover`, with the same code),
/// and closes again from a changed day when late data arrives. Everything it reads is derived from the
/// ledger of events (the user's days) and the freezes the user asked for, so closing twice changes nothing.
struct StreakKeeper: Sendable {
    let rules: Rules
    /// A period frozen or a streak lost is a server event (analytics, webhooks).
    let analytics: EventRecorder

    var weekStart: Weekday { self.rules.base.week.startsOn }

    /// Whether an input of this kind can change the streak (its basis is the app's, whatever the person's variant).
    func matters(_ payload: ActivityPayload) -> Bool {
        switch (self.rules.base.streaks.basis, payload) {
        case (.checkIn, .checkIn), (.appOpen, .appOpen): true
        case (.pushups, .workout(let workout)): workout.type == .pushups
        default: false
        }
    }

    /// The streak now, with its current (open) period.
    struct View: Sendable {
        /// The person's streak rules (an experiment may give them other freezes).
        var policy: StreakPolicy
        var state: Streak
        var standing: Streak.Standing
        /// The first day of the open period.
        var period: LocalDate
        var today: LocalDate
    }

    /// Closes what has ended and answers where the streak stands. `changedFrom` is the earliest day whose
    /// data changed; periods from there on are closed again.
    func refresh(_ user: User, in tx: Transaction, now: Date, changedFrom: LocalDate? = nil) async throws -> View {
        try await Ledger(
            policy: try await self.rules.of(user, in: tx, at: now).streaks,
            weekStart: self.weekStart,
            analytics: self.analytics
        )
        .refresh(user, in: tx, now: now, changedFrom: changedFrom)
    }
}

/// One person's streak ledger under their rules.
private struct Ledger {
    let policy: StreakPolicy
    let weekStart: Weekday
    let analytics: EventRecorder

    func refresh(_ user: User, in tx: Transaction, now: Date, changedFrom: LocalDate?) async throws -> StreakKeeper.View
    {
        let today = user.localDate(at: now)
        let current = Streak.period(of: today, policy: self.policy, weekStartsOn: self.weekStart)
        let stored = try await tx.streaks.streak(of: user.id)
        var state = stored?.state ?? Streak()
        let nothing = Streak.Activity(progress: 0, target: try await self.target(of: user.id, in: tx))

        var start = stored.map { Streak.period(after: $0.evaluatedThrough, policy: self.policy) }
        if let changedFrom {
            let changed = Streak.period(of: changedFrom, policy: self.policy, weekStartsOn: self.weekStart)
            if start.map({ changed < $0 }) ?? true { start = changed }
        }
        var closed = false
        if let start, start < current {
            closed = true
            if let stored, start <= stored.evaluatedThrough {
                // Close again from the state after the last entry before the change.
                state = try await tx.streaks.streakEntry(of: user.id, before: start)?.state ?? Streak()
            }
            let activities = try await self.activities(
                of: user.id,
                from: start,
                through: Streak.period(before: current, policy: self.policy),
                nothing: nothing,
                in: tx
            )
            var entries: [Streak.Entry] = []
            var events: [AnalyticsEvent] = []
            var period = start
            while period < current {
                let (next, entry) = state.close(
                    period,
                    with: activities[period] ?? nothing,
                    policy: self.policy,
                    weekStartsOn: self.weekStart
                )
                if let entry, entry.status == .frozen || (entry.status == .reset && state.count > 0) {
                    // A period closed again after late data makes the same key: told once.
                    let (event, lost): (ServerEvent, Int) =
                        entry.status == .frozen ? (.streakFrozen, entry.count) : (.streakBroken, state.count)
                    events.append(
                        .server(
                            event,
                            key: period.iso,
                            of: user.id,
                            on: period,
                            at: now,
                            properties: ["period": .string(period.iso), "streak": .integer(lost)]
                        )
                    )
                }
                state = next
                if let entry { entries.append(entry) }
                period = Streak.period(after: period, policy: self.policy)
            }
            try await tx.streaks.replaceEntries(of: user.id, from: start, with: entries)
            try await self.analytics.record(events, in: tx)
        }
        if closed || (stored == nil && start != nil) {
            try await tx.streaks.save(
                StoredStreak(state: state, evaluatedThrough: Streak.period(before: current, policy: self.policy)),
                of: user.id,
                at: now
            )
        }
        let open =
            try await self.activities(of: user.id, from: current, through: current, nothing: nothing, in: tx)[current]
            ?? nothing
        return StreakKeeper.View(
            policy: self.policy,
            state: state,
            standing: state.standing(in: current, with: open, policy: self.policy, weekStartsOn: self.weekStart),
            period: current,
            today: today
        )
    }

    /// What a period needs: one check-in or app open a day, or the week's push-up goal from the user's
    /// training settings (the defaults until onboarding saved some).
    private func target(of user: User.ID, in tx: Transaction) async throws -> Int {
        switch self.policy.basis {
        case .checkIn, .appOpen: 1
        case .pushups: (try await tx.training.settings(of: user) ?? .defaults).weeklyGoal
        }
    }

    /// What each period from `first` to `last` (period starts) holds, from the user's days.
    private func activities(
        of user: User.ID,
        from first: LocalDate,
        through last: LocalDate,
        nothing: Streak.Activity,
        in tx: Transaction
    ) async throws -> [LocalDate: Streak.Activity] {
        let end = Streak.period(after: last, policy: self.policy).adding(days: -1)
        return Streak.Activity.byPeriod(
            days: try await tx.activities.days(of: user, from: first, to: end),
            freezeRequests: try await tx.streaks.freezeRequests(of: user, from: first, to: last),
            policy: self.policy,
            weekStartsOn: self.weekStart,
            nothing: nothing
        )
    }
}
