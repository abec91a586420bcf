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
    struct Books {
        var stats: RewardStats
        var days: [LocalDate: PointsDay]
        var credited: Set<String>
        var lines: [PointsLine] = []
        var events: [RewardEvent] = []
        var badges: [UnlockedBadge] = []
        var unlocked: Set<String>

        static let empty = Books(stats: RewardStats(), days: [:], credited: [], unlocked: [])
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
        let training = hasSeries ? try await tx.training.settings(of: user.id) ?? .defaults : TrainingSettings.defaults
        var streakState = Streak()
        if let streak {
            streakState = streak
        } else if let stored = try await tx.streaks.streak(of: user.id) {
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
        let lines = try await tx.points.lines(of: user.id, crediting: event.id)
        var stats = try await tx.points.stats(of: user.id) ?? RewardStats()
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
            try await tx.points.append([reversal], of: user.id)
        }
        try await tx.points.save(stats, of: user.id, at: now)
    }

    /// An amount of XP moved between a person and a challenge's escrow (spec 002 stakes): a stake taken
    /// (negative), a refund or a payout, as one ledger line keyed `key`.
    struct StakeMove: Sendable {
        var user: User
        var amount: Int
        var reason: PointsLine.Reason
        var key: String
        var challenge: Challenge.ID
    }

    /// Moves XP between the user and a challenge's escrow, credited once; the level and badges follow the
    /// balance like any other line. The caller holds the user's lock. Answers false when `key` was
    /// credited before (nothing moves).
    func moveStake(
        _ amount: Int,
        _ reason: PointsLine.Reason,
        key: String,
        challenge: Challenge.ID,
        of user: User,
        in tx: Transaction,
        now: Date
    ) async throws -> Bool {
        let move = StakeMove(user: user, amount: amount, reason: reason, key: key, challenge: challenge)
        return try await self.moveStakes([move], in: tx, now: now) == [true]
    }

    /// Makes many moves at once, in order (one person's several moves each against the balance the one
    /// before left), reading and writing everyone's books together. The caller holds every person's lock.
    /// Answers, move by move, whether it moved: a key credited before moves nothing.
    @discardableResult
    func moveStakes(_ moves: [StakeMove], in tx: Transaction, now: Date) async throws -> [Bool] {
        var wanted: [User.ID: BooksRange] = [:]
        for move in moves {
            wanted[move.user.id, default: BooksRange(days: nil, keys: [])].keys.insert(move.key)
        }
        var books = try await self.books(wanted, in: tx)
        var moved: [Bool] = []
        var touched: Set<User.ID> = []
        for move in moves {
            guard var mine = books[move.user.id], !mine.credited.contains(move.key) else {
                moved.append(false)
                continue
            }
            let today = move.user.localDate(at: now)
            self.credit(
                line(
                    today,
                    move.amount,
                    move.reason,
                    move.key,
                    now: now,
                    detail: .init(level: mine.stats.level, challengeID: move.challenge.rawValue)
                ),
                into: &mine,
                now: now
            )
            self.unlockBadges(on: today, now: now, into: &mine)
            books[move.user.id] = mine
            moved.append(true)
            touched.insert(move.user.id)
        }
        try await self.write(books.filter { touched.contains($0.key) }, in: tx, now: now)
        return moved
    }

    /// Sets the badge counters kept outside the ledger (challenges, spec 002 §4) to what they are now and
    /// unlocks every badge they complete, for many people at once. The caller holds their locks.
    func setCounters(
        _ counters: [User.ID: [Badge.Counter: Int]],
        of people: [User.ID: User],
        in tx: Transaction,
        now: Date
    )
        async throws
    {
        let wanted = people.filter { counters[$0.key] != nil }.mapValues { _ in BooksRange(days: nil, keys: []) }
        var changed: [User.ID: Books] = [:]
        for (user, var books) in try await self.books(wanted, in: tx) {
            guard let person = people[user], let counters = counters[user],
                counters.contains(where: { books.stats.counters[$0.key] != $0.value })
            else { continue }
            books.stats.counters.merge(counters) { _, new in new }
            self.unlockBadges(on: person.localDate(at: now), now: now, into: &books)
            changed[user] = books
        }
        try await self.write(changed, in: tx, now: now)
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

    func event(_ kind: RewardEvent.Kind, on date: LocalDate, _ data: [String: String], now: Date) -> RewardEvent {
        RewardEvent(id: self.ids.make(RewardEvent.self).rawValue, kind: kind, date: date, data: data, createdAt: now)
    }
}
