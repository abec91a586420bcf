public import FitCircleCore
public import FitCircleStore
public import Foundation
import Synchronization

/// Points, levels and badges as the caller sees them. Credits happen where inputs are recorded
/// (`RewardKeeper`, inside the ingest transaction); this answers "how many, why, and what is next".
public struct Rewards: Sendable {
    let store: Store
    let profile: RuleProfile
    let clock: WallClock
    private let holders: HolderShares

    public init(store: Store, profile: RuleProfile, clock: WallClock) {
        self.store = store
        self.profile = profile
        self.clock = clock
        self.holders = HolderShares()
    }

    var policy: RewardPolicy { self.profile.rewards }

    /// A page of the ledger, newest first. `cursor` is the `nextCursor` of the page before.
    public func ledger(of user: User.ID, cursor: String?, limit: Int) async throws -> (
        lines: [PointsLine], nextCursor: String?
    ) {
        var validator = Validator()
        let before = cursor.flatMap { Int64($0) }
        validator.check(cursor == nil || before != nil, "cursor", "must be the nextCursor of an earlier page")
        validator.check((1...200).contains(limit), "limit", "must be between 1 and 200")
        try validator.throwIfInvalid()
        let lines = try await self.store.read { tx in try await tx.points.lines(of: user, before: before, limit: limit)
        }
        return (lines, lines.count == limit ? lines.last?.sequence.map(String.init) : nil)
    }

    /// Points per local date from `from` to `to` (by default the last 7 days in the user's zone).
    public func days(of user: User, from: LocalDate?, to: LocalDate?) async throws -> [PointsDay] {
        let (first, last) = try LocalDate.queried(from: from, to: to, today: user.localDate(at: self.clock.now()))
        return PointsDay.summarize(
            try await self.store.read { tx in try await tx.points.lines(of: user.id, from: first, to: last) }
        )
    }

    /// The caller's totals, level, today and the weekly challenge (POINTS-05, CHAL-01).
    public struct Stats: Equatable, Sendable {
        public var stats: RewardStats
        public var standing: LevelCurve.Standing
        public var today: PointsDay
        public var pushupCap: Int?
        public var weeklyChallenge: WeeklyChallengeProgress?
    }

    public struct WeeklyChallengeProgress: Equatable, Sendable {
        public var weekStart: LocalDate
        public var target: Int
        public var progress: Int
        public var completed: Bool
        public var badge: String?
    }

    public func stats(of user: User) async throws -> Stats {
        let today = user.localDate(at: self.clock.now())
        let weekStart = today.startOfWeek(startingOn: self.profile.week.startsOn)
        return try await self.store.read { tx in
            let stats = try await tx.points.stats(of: user.id) ?? RewardStats()
            let days = PointsDay.summarize(
                try await tx.points.lines(of: user.id, from: weekStart, to: weekStart.adding(days: 6))
            )
            let needsGoal = self.policy.pushupCap != nil || self.policy.weeklyChallenge != nil
            let training = needsGoal ? try await tx.training.settings(of: user.id) ?? .defaults : .defaults
            var challenge: WeeklyChallengeProgress?
            if let rule = self.policy.weeklyChallenge {
                let start = rule.start(holding: today, profileWeekStartsOn: self.profile.week.startsOn)
                let badge = "weekly-challenge-\(start.iso)"
                let unlocked = try await tx.points.unlockedBadges(of: user.id).first { $0.badgeID == badge }
                let challengeDays =
                    start == weekStart
                    ? days
                    : PointsDay.summarize(
                        try await tx.points.lines(of: user.id, from: start, to: start.adding(days: 6))
                    )
                challenge = WeeklyChallengeProgress(
                    weekStart: start,
                    target: training.dailyGoal * rule.goalDays,
                    progress: challengeDays.reduce(0) { $0 + $1.pushupsCounted },
                    completed: unlocked != nil,
                    badge: unlocked?.name
                )
            }
            return Stats(
                stats: stats,
                standing: self.policy.levels.standing(for: stats.totalPoints),
                today: days.first { $0.date == today } ?? PointsDay(date: today),
                pushupCap: self.policy.pushupCap?.cap(dailyGoal: training.dailyGoal, level: stats.level),
                weeklyChallenge: challenge
            )
        }
    }

    /// One catalog badge as the caller sees it.
    public struct BadgeProgress: Equatable, Sendable {
        public var badge: Badge
        public var counters: [Badge.Counter: Int]
        public var progress: Double
        public var unlockedAt: Date?
        /// The share of active users holding it.
        public var holders: Double
    }

    public struct Catalog: Equatable, Sendable {
        public var badges: [BadgeProgress]
        /// Badges made for one occasion (weekly challenges), not in the catalog.
        public var dated: [UnlockedBadge]
        public var showcase: [String]
    }

    public func catalog(of user: User.ID) async throws -> Catalog {
        let shares = try await self.holderShares()
        return try await self.store.read { tx in
            let counters = (try await tx.points.stats(of: user) ?? RewardStats()).allCounters
            let unlocked = try await tx.points.unlockedBadges(of: user)
            let byID = Dictionary(unlocked.map { ($0.badgeID, $0) }, uniquingKeysWith: { first, _ in first })
            let catalogIDs = Set(self.policy.badges.map(\.id))
            return Catalog(
                badges: self.policy.badges.map { badge in
                    BadgeProgress(
                        badge: badge,
                        counters: counters,
                        progress: byID[badge.id] != nil ? 1 : badge.progress(counters),
                        unlockedAt: byID[badge.id]?.unlockedAt,
                        holders: shares[badge.id] ?? 0
                    )
                },
                dated: unlocked.filter { !catalogIDs.contains($0.badgeID) },
                showcase: try await tx.points.badgeShowcase(of: user)
            )
        }
    }

    /// A user's unlocked badges and the three they feature, as `viewer` may see them (`ProfileAccess`).
    public func badges(of user: User.ID, seenBy viewer: User.ID) async throws -> (
        badges: [UnlockedBadge], showcase: [UnlockedBadge]
    ) {
        try await self.store.read { tx in
            guard try await tx.users.find(user) != nil,
                ProfileAccess.mayView(.badges, try await Profiles.standing(of: viewer, to: user, in: tx).relationship)
            else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            let unlocked = try await tx.points.unlockedBadges(of: user)
            let showcase = try await tx.points.badgeShowcase(of: user).compactMap { id in
                unlocked.first { $0.badgeID == id }
            }
            return (unlocked, showcase)
        }
    }

    /// Features up to three of the caller's unlocked badges, in order.
    public func updateShowcase(_ ids: [String], of user: User.ID) async throws -> (
        badges: [UnlockedBadge], showcase: [UnlockedBadge]
    ) {
        try await self.store.transaction { tx in
            let unlocked = Set(try await tx.points.unlockedBadges(of: user).map(\.badgeID))
            var validator = Validator()
            validator.check(ids.count <= 3, "badgeIds", "must hold at most 3 badges")
            validator.check(Set(ids).count == ids.count, "badgeIds", "must not name a badge twice")
            for (index, id) in ids.enumerated() {
                validator.check(
                    unlocked.contains(id),
                    "badgeIds[\(index)]",
                    "must be a badge you have unlocked ('\(id)' is not)"
                )
            }
            try validator.throwIfInvalid()
            try await tx.points.saveBadgeShowcase(ids, of: user, at: self.clock.now())
        }
        return try await self.badges(of: user, seenBy: user)
    }

    /// Each badge's share of active users (an activity in the last 30 days), computed at most every 10 minutes.
    private func holderShares() async throws -> [String: Double] {
        let now = self.clock.now()
        if let cached = self.holders.value(at: now) { return cached }
        let (holders, active) = try await self.store.read { tx in
            try await tx.points.badgeHolders(activeSince: now.addingTimeInterval(-30 * 86_400))
        }
        let shares = holders.mapValues { active == 0 ? 0 : Double($0) / Double(active) }
        self.holders.store(shares, at: now)
        return shares
    }
}

/// The last computed holder shares and when they were computed.
private final class HolderShares: Sendable {
    static let lifetime: TimeInterval = 600
    private let state = Mutex<(shares: [String: Double], computedAt: Date)?>(nil)

    func value(at now: Date) -> [String: Double]? {
        self.state.withLock { state in
            guard let state, now.timeIntervalSince(state.computedAt) < Self.lifetime, now >= state.computedAt else {
                return nil
            }
            return state.shares
        }
    }

    func store(_ shares: [String: Double], at now: Date) {
        self.state.withLock { $0 = (shares, now) }
    }
}
