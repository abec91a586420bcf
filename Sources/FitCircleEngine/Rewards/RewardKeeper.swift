import FitCircleCore
import FitCircleStore
import Foundation

/// Credits points, levels and badges inside the caller's transaction, which holds the user's lock: the
/// inputs of a group are credited in order, each against what the day has counted before it, so caps hold
/// however the inputs arrive (one by one, batched, concurrently or backdated). Every credit is a ledger
/// line whose source key is unique per user, so nothing is credited twice.
struct RewardKeeper: Sendable {
    let profile: RuleProfile
    let ids: IDGenerator
    /// Levels and badges are the server's events too (analytics, webhooks).
    let analytics: EventRecorder

    var policy: RewardPolicy { self.profile.rewards }

    static let capMessage = "Daily cap reached. Push-ups still tracked but not rewarded."

    /// Whether an input of this kind can earn points or move a badge counter.
    func matters(_ payload: ActivityPayload, streaks: StreakKeeper) -> Bool {
        switch payload {
        case .workout, .checkIn: true
        default: streaks.matters(payload)
        }
    }

    /// The ledger as this transaction sees it, for one user.
    private struct Books {
        var stats: RewardStats
        var days: [LocalDate: PointsDay]
        var credited: Set<String>
        var lines: [PointsLine] = []
        var events: [RewardEvent] = []
        var badges: [UnlockedBadge] = []
        var unlocked: Set<String>
    }

    /// Credits `events` (created now, in order) and answers what each earned.
    func award(
        _ events: [ActivityEvent],
        of user: User,
        streak: Streak?,
        in tx: Transaction,
        now: Date
    ) async throws -> [ActivityEvent.ID: Reward] {
        let weekStart = self.profile.week.startsOn
        let dates = events.map(\.localDate)
        let weeks = Set(dates.map { $0.startOfWeek(startingOn: weekStart) })
        // The weekly challenge may keep its own week (from Sunday while the profile's starts on Monday).
        let challengeWeeks: Set<LocalDate> =
            self.policy.weeklyChallenge.map { rule in
                Set(dates.map { rule.start(holding: $0, profileWeekStartsOn: weekStart) })
            } ?? []
        guard let first = weeks.union(challengeWeeks).min(),
            let last = weeks.union(challengeWeeks).max()?.adding(days: 6)
        else {
            return [:]
        }
        let weeklyKeys = weeks.map { "weekly_bonus:\($0.iso)" } + challengeWeeks.map { "weekly_challenge:\($0.iso)" }
        let hasSeries =
            self.policy.series != nil
            && events.contains {
                if case .workout(let workout) = $0.payload { workout.type == .pushups } else { false }
            }
        let training = hasSeries ? try await tx.trainingSettings(of: user.id) ?? .defaults : TrainingSettings.defaults
        var streakState = Streak()
        if let streak {
            streakState = streak
        } else if let stored = try await tx.streak(of: user.id) {
            streakState = stored.state
        }
        var books = try await self.books(of: user.id, from: first, to: last, keys: Set(weeklyKeys), in: tx)

        var rewards: [ActivityEvent.ID: Reward] = [:]
        for event in events {
            let before = books.lines.count
            var reward = Reward()
            switch event.payload {
            case .workout(let workout) where workout.type == .pushups && self.policy.series != nil:
                guard
                    let award = self.creditSeries(
                        workout,
                        of: event,
                        training: training,
                        streak: streakState,
                        now: now,
                        into: &books
                    )
                else { break }
                reward.series = award
                if award.capReached { reward.message = Self.capMessage }
                self.creditWeek(holding: event.localDate, training: training, now: now, into: &books)
            case .workout(let workout):
                books.stats.counters[.workouts, default: 0] += 1
                if let rule = self.policy.workouts {
                    let late = self.policy.isLate(event)
                    let amount =
                        late
                        ? 0
                        : Points.workout(
                            workout,
                            earnedToday: books.days[event.localDate]?.workoutPoints ?? 0,
                            policy: rule
                        )
                    self.credit(
                        line(
                            event.localDate,
                            amount,
                            .workout,
                            Self.key("workout", of: event),
                            event: event.id,
                            now: now,
                            detail: .init(level: books.stats.level, late: late ? true : nil)
                        ),
                        into: &books,
                        now: now
                    )
                }
            case .checkIn:
                books.stats.counters[.checkIns, default: 0] += 1
                if let amount = self.policy.checkIn {
                    let late = self.policy.isLate(event)
                    self.credit(
                        line(
                            event.localDate,
                            late ? 0 : amount,
                            .checkIn,
                            Self.key("check_in", of: event),
                            event: event.id,
                            now: now,
                            detail: .init(level: books.stats.level, late: late ? true : nil)
                        ),
                        into: &books,
                        now: now
                    )
                }
            default:
                break
            }
            books.stats.counters[.streak] = max(books.stats.counters[.streak] ?? 0, streakState.longest)
            self.unlockBadges(on: user.localDate(at: now), now: now, into: &books)
            reward.lines = Array(books.lines[before...])
            reward.badges = books.badges.filter { badge in reward.lines.contains { $0.detail.badgeID == badge.badgeID }
            }
            reward.totalPoints = books.stats.totalPoints
            reward.level = books.stats.level
            rewards[event.id] = reward
        }
        try await self.write(books, of: user.id, in: tx, now: now)
        return rewards
    }

    /// Credits a goal seen met for the first time (where it closes), once, on the day it was seen met
    /// within its period.
    func creditGoalMet(_ goal: Goal, of user: User, in tx: Transaction, now: Date) async throws {
        let last = goal.span == .daily ? goal.period : goal.period.adding(days: 6)
        let date = min(max(user.localDate(at: now), goal.period), last)
        let key = "goal_met:\(goal.id)"
        var books = try await self.books(of: user.id, from: date, to: date, keys: [key], in: tx)
        guard !books.credited.contains(key) else { return }
        books.stats.counters[.goalsMet, default: 0] += 1
        if let amount = self.policy.goalMet {
            self.credit(
                line(
                    date,
                    amount,
                    .goalMet,
                    key,
                    now: now,
                    detail: .init(level: books.stats.level, goalID: goal.id.rawValue)
                ),
                into: &books,
                now: now
            )
        }
        self.unlockBadges(on: user.localDate(at: now), now: now, into: &books)
        try await self.write(books, of: user.id, in: tx, now: now)
    }

    /// Credits the first claim of a day's data to the user's circles (spec 000: a submission earns points),
    /// once per day however many circles it went to.
    func creditSubmission(of date: LocalDate, of user: User, in tx: Transaction, now: Date) async throws {
        guard let amount = self.policy.submission else { return }
        let key = "submission:\(date.iso)"
        var books = try await self.books(of: user.id, from: date, to: date, keys: [key], in: tx)
        guard !books.credited.contains(key) else { return }
        self.credit(
            line(date, amount, .submission, key, now: now, detail: .init(level: books.stats.level)),
            into: &books,
            now: now
        )
        self.unlockBadges(on: user.localDate(at: now), now: now, into: &books)
        try await self.write(books, of: user.id, in: tx, now: now)
    }

    /// The ledger key of what `event` earns or gives back: each version of an edited event its own, so an
    /// edit takes back what the version before earned and credits the new one, as often as it is edited.
    static func key(_ reason: String, of event: ActivityEvent) -> String {
        event.revision == 0 ? "\(reason):\(event.id)" : "\(reason):\(event.id):r\(event.revision)"
    }

    /// Takes back what a deleted input earned: one reversal line, and its counters. Weekly rewards and
    /// badges already earned stay (they are credited once).
    func reverse(_ event: ActivityEvent, of user: User, in tx: Transaction, now: Date) async throws {
        let lines = try await tx.pointsLines(of: user.id, crediting: event.id)
        var stats = try await tx.rewardStats(of: user.id) ?? RewardStats()
        switch event.payload {
        case .workout(let workout) where workout.type == .pushups && self.policy.series != nil:
            let counted = lines.reduce(0) { $0 + $1.counted }
            if counted > 0 { stats.counters[.series, default: 0] -= 1 }
            stats.counters[.pushups, default: 0] -= counted
        case .workout:
            stats.counters[.workouts, default: 0] -= 1
        case .checkIn:
            stats.counters[.checkIns, default: 0] -= 1
        default:
            break
        }
        if let original = lines.first, original.reason != .reversal {
            let reversal = line(
                original.date,
                -lines.reduce(0) { $0 + $1.amount },
                .reversal,
                Self.key("reversal", of: event),
                event: event.id,
                now: now,
                counted: -lines.reduce(0) { $0 + $1.counted },
                excess: -lines.reduce(0) { $0 + $1.excess },
                detail: .init(level: stats.level, reverses: original.reason)
            )
            stats.totalPoints += reversal.amount
            stats.level = self.policy.levels.level(for: stats.totalPoints)
            try await tx.append([reversal], of: user.id)
        }
        try await tx.save(stats, of: user.id, at: now)
    }

    /// Moves XP between the user and a challenge's escrow (spec 002 stakes): a stake taken (negative), a
    /// refund or a payout, as one ledger line keyed `key`, credited once; the level and badges follow the
    /// balance like any other line. The caller holds the user's lock. Answers false when `key` was
    /// credited before (nothing moved).
    func moveStake(
        _ amount: Int,
        _ reason: PointsLine.Reason,
        key: String,
        challenge: Challenge.ID,
        of user: User,
        in tx: Transaction,
        now: Date
    ) async throws -> Bool {
        let today = user.localDate(at: now)
        var books = try await self.books(of: user.id, from: today, to: today, keys: [key], in: tx)
        guard !books.credited.contains(key) else { return false }
        self.credit(
            line(
                today,
                amount,
                reason,
                key,
                now: now,
                detail: .init(level: books.stats.level, challengeID: challenge.rawValue)
            ),
            into: &books,
            now: now
        )
        self.unlockBadges(on: today, now: now, into: &books)
        try await self.write(books, of: user.id, in: tx, now: now)
        return true
    }

    /// Sets the badge counters kept outside the ledger (challenges, spec 002 §4) to what they are now and
    /// unlocks every badge they complete. The caller holds the user's lock.
    func setCounters(_ counters: [Badge.Counter: Int], of user: User, in tx: Transaction, now: Date) async throws {
        let today = user.localDate(at: now)
        var books = try await self.books(of: user.id, from: today, to: today, keys: [], in: tx)
        guard counters.contains(where: { books.stats.counters[$0.key] != $0.value }) else { return }
        books.stats.counters.merge(counters) { _, new in new }
        self.unlockBadges(on: today, now: now, into: &books)
        try await self.write(books, of: user.id, in: tx, now: now)
    }

    // MARK: Credits

    private func creditSeries(
        _ workout: Workout,
        of event: ActivityEvent,
        training: TrainingSettings,
        streak: Streak,
        now: Date,
        into books: inout Books
    ) -> Points.SeriesAward? {
        guard let rule = self.policy.series else { return nil }
        let day = books.days[event.localDate] ?? PointsDay(date: event.localDate)
        var award = Points.series(
            number: workout.series ?? 1,
            reps: workout.reps ?? 0,
            countedBefore: day.pushupsCounted,
            cap: self.policy.pushupCap?.cap(dailyGoal: training.dailyGoal, level: books.stats.level),
            streakMultiplier: self.policy.streakMultiplier.value(streak: streak.count),
            policy: rule
        )
        // A late series still counts toward the day's push-ups; it earns nothing.
        let late = self.policy.isLate(event)
        if late { award.points = 0 }
        if award.counted > 0 { books.stats.counters[.series, default: 0] += 1 }
        books.stats.counters[.pushups, default: 0] += award.counted
        self.credit(
            line(
                event.localDate,
                award.points,
                .series,
                Self.key("series", of: event),
                event: event.id,
                now: now,
                multiplier: award.streakMultiplier,
                counted: award.counted,
                excess: award.excess,
                detail: .init(
                    series: award,
                    level: books.stats.level,
                    dailyGoal: training.dailyGoal,
                    streak: streak.count,
                    late: late ? true : nil
                )
            ),
            into: &books,
            now: now
        )
        return award
    }

    /// The weekly bonus of the week holding `date` and the weekly challenge of its own week holding it, once each.
    private func creditWeek(holding date: LocalDate, training: TrainingSettings, now: Date, into books: inout Books) {
        let start = date.startOfWeek(startingOn: self.profile.week.startsOn)
        let counted = (0..<7).reduce(0) { $0 + (books.days[start.adding(days: $1)]?.pushupsCounted ?? 0) }
        let lastDay = start.adding(days: 6)
        if let bonus = self.policy.weeklyBonus, counted >= training.weeklyGoal,
            !books.credited.contains("weekly_bonus:\(start.iso)")
        {
            self.credit(
                line(
                    lastDay,
                    bonus,
                    .weeklyBonus,
                    "weekly_bonus:\(start.iso)",
                    now: now,
                    detail: .init(
                        level: books.stats.level,
                        dailyGoal: training.dailyGoal,
                        weekStart: start,
                        target: training.weeklyGoal
                    )
                ),
                into: &books,
                now: now
            )
            books.events.append(
                self.event(.weeklyBonus, on: lastDay, ["weekStart": start.iso, "points": "\(bonus)"], now: now)
            )
        }
        guard let challenge = self.policy.weeklyChallenge else { return }
        let challengeStart = challenge.start(holding: date, profileWeekStartsOn: self.profile.week.startsOn)
        let challengeCounted = (0..<7).reduce(0) {
            $0 + (books.days[challengeStart.adding(days: $1)]?.pushupsCounted ?? 0)
        }
        if challengeCounted >= training.dailyGoal * challenge.goalDays,
            !books.credited.contains("weekly_challenge:\(challengeStart.iso)")
        {
            let badge = UnlockedBadge(
                badgeID: "weekly-challenge-\(challengeStart.iso)",
                name: "Weekly Challenge \(challengeStart.iso)",
                date: date,
                unlockedAt: now
            )
            books.badges.append(badge)
            books.unlocked.insert(badge.badgeID)
            books.stats.counters[.weeklyChallenges, default: 0] += 1
            self.credit(
                line(
                    date,
                    challenge.points,
                    .weeklyChallenge,
                    "weekly_challenge:\(challengeStart.iso)",
                    now: now,
                    detail: .init(
                        level: books.stats.level,
                        dailyGoal: training.dailyGoal,
                        weekStart: challengeStart,
                        target: training.dailyGoal * challenge.goalDays,
                        badgeID: badge.badgeID
                    )
                ),
                into: &books,
                now: now
            )
            books.events.append(
                self.event(
                    .weeklyChallengeCompleted,
                    on: date,
                    ["weekStart": challengeStart.iso, "badge": badge.name, "points": "\(challenge.points)"],
                    now: now
                )
            )
        }
    }

    /// Unlocks every catalog badge whose requirement now holds; a badge's XP may unlock another.
    private func unlockBadges(on today: LocalDate, now: Date, into books: inout Books) {
        var unlockedOne = true
        while unlockedOne {
            unlockedOne = false
            for badge in self.policy.badges
            where !books.unlocked.contains(badge.id) && badge.isMet(by: books.stats.allCounters) {
                books.unlocked.insert(badge.id)
                books.badges.append(UnlockedBadge(badgeID: badge.id, name: badge.name, date: today, unlockedAt: now))
                books.events.append(
                    self.event(
                        .badgeUnlocked,
                        on: today,
                        ["badge": badge.id, "name": badge.name, "points": "\(badge.xp)"],
                        now: now
                    )
                )
                self.credit(
                    line(
                        today,
                        badge.xp,
                        .badge,
                        "badge:\(badge.id)",
                        now: now,
                        detail: .init(level: books.stats.level, badgeID: badge.id)
                    ),
                    into: &books,
                    now: now
                )
                unlockedOne = true
            }
        }
    }

    /// Adds a line to the books: the day, the total and the level follow; a new level is an event.
    private func credit(_ line: PointsLine, into books: inout Books, now: Date) {
        books.lines.append(line)
        books.credited.insert(line.sourceKey)
        books.days[line.date] = (books.days[line.date] ?? PointsDay(date: line.date)).adding(line)
        books.stats.totalPoints += line.amount
        let level = self.policy.levels.level(for: books.stats.totalPoints)
        if level > books.stats.level {
            books.events.append(self.event(.levelReached, on: line.date, ["level": "\(level)"], now: now))
        }
        books.stats.level = level
    }

    /// The user's stats, badges, the ledger's days from `from` to `to` and which of `keys` were credited.
    private func books(of user: User.ID, from: LocalDate, to: LocalDate, keys: Set<String>, in tx: Transaction)
        async throws -> Books
    {
        Books(
            stats: try await tx.rewardStats(of: user) ?? RewardStats(),
            days: Dictionary(
                uniqueKeysWithValues: PointsDay.summarize(try await tx.pointsLines(of: user, from: from, to: to)).map {
                    ($0.date, $0)
                }
            ),
            credited: try await tx.creditedSourceKeys(of: user, among: keys),
            unlocked: Set(try await tx.unlockedBadges(of: user).map(\.badgeID))
        )
    }

    private func write(_ books: Books, of user: User.ID, in tx: Transaction, now: Date) async throws {
        try await tx.append(books.lines, of: user)
        try await tx.insert(books.badges, of: user)
        try await tx.insert(books.events, of: user)
        try await self.analytics.record(
            books.events.compactMap { event -> AnalyticsEvent? in
                switch event.kind {
                case .levelReached:
                    .server(
                        .levelUp,
                        key: event.data["level"] ?? event.id,
                        of: user,
                        on: event.date,
                        at: now,
                        properties: [
                            "level": .integer(Int(event.data["level"] ?? "") ?? books.stats.level),
                            "totalPoints": .integer(books.stats.totalPoints),
                        ]
                    )
                case .badgeUnlocked:
                    .server(
                        .badgeUnlocked,
                        key: event.data["badge"] ?? event.id,
                        of: user,
                        on: event.date,
                        at: now,
                        properties: [
                            "badge": .string(event.data["badge"] ?? ""), "name": .string(event.data["name"] ?? ""),
                        ]
                    )
                case .weeklyBonus, .weeklyChallengeCompleted: nil
                }
            },
            in: tx
        )
        try await tx.enqueue(
            try books.events.compactMap { event in
                try Self.achievement(event).flatMap {
                    try Notifications.raising(
                        $0,
                        for: user,
                        catalog: self.profile.notifications,
                        ids: self.ids,
                        at: now
                    )
                }
            }
                + books.events.filter { $0.kind == .badgeUnlocked }.map { event in
                    // Members' circles see their badges in the feed.
                    let badge = event.data["badge"] ?? event.id
                    return try Circles.posting(
                        Circles.News(
                            user: user,
                            kind: .badge,
                            subject: event.data["name"] ?? badge,
                            key: "badge:\(badge)"
                        ),
                        ids: self.ids,
                        at: now
                    )
                },
            at: now
        )
        try await tx.save(books.stats, of: user, at: now)
    }

    private func line(
        _ date: LocalDate,
        _ amount: Int,
        _ reason: PointsLine.Reason,
        _ key: String,
        event: ActivityEvent.ID? = nil,
        now: Date,
        multiplier: Double? = nil,
        counted: Int = 0,
        excess: Int = 0,
        detail: PointsLine.Detail
    ) -> PointsLine {
        PointsLine(
            id: self.ids.make(),
            date: date,
            amount: amount,
            reason: reason,
            sourceKey: key,
            sourceEventID: event,
            multiplier: multiplier,
            counted: counted,
            excess: excess,
            detail: detail,
            createdAt: now
        )
    }

    /// The "achievement" notification of a reward event (spec 001, WEEKLY-03 and CHAL-02), where the app has one.
    static func achievement(_ event: RewardEvent) -> NotificationCandidate? {
        let title: String
        switch event.kind {
        case .badgeUnlocked: title = "Badge unlocked: \(event.data["name"] ?? "")"
        case .weeklyBonus: title = "Weekly goal reached"
        case .weeklyChallengeCompleted: title = "Weekly challenge complete"
        case .levelReached: return nil
        }
        let subject = event.data["badge"] ?? event.data["weekStart"] ?? event.date.iso
        return NotificationCandidate(
            type: .achievement,
            dedupeKey: "achievement:\(event.kind.rawValue):\(subject)",
            data: ["achievement": title, "points": event.data["points"] ?? "0"]
        )
    }

    private func event(_ kind: RewardEvent.Kind, on date: LocalDate, _ data: [String: String], now: Date) -> RewardEvent
    {
        RewardEvent(id: self.ids.make(RewardEvent.self).rawValue, kind: kind, date: date, data: data, createdAt: now)
    }
}
