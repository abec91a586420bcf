public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of the points ledger, levels and badges.
    public var points: PointQueries { PointQueries(tx: self) }
}

public struct PointQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }
    /// How many rows one statement writes or names (`chunks(of:)`).
    static let chunk = 500

    /// Appends lines to the user's points ledger. Each source key is credited once: a line whose key is
    /// already there is an error, and the transaction must be rolled back.
    public func append(_ lines: [PointsLine], of user: User.ID) async throws {
        try await self.append([user: lines])
    }

    /// Appends lines to several people's ledgers, many in one statement (each person's in their order).
    public func append(_ lines: [User.ID: [PointsLine]]) async throws {
        let all = lines.sorted { $0.key < $1.key }.flatMap { user, lines in lines.map { (user, $0) } }
        for part in all.chunks(of: 250) {
            let rows = try part.map { user, line -> SQLQueryString in
                """
                (\(bind: line.id.rawValue), \(bind: user.rawValue), \(bind: line.date.iso), \(bind: line.amount), \(bind: line.reason.rawValue),
                \(bind: line.sourceKey), \(bind: line.sourceEventID?.rawValue), \(bind: line.multiplier), \(bind: line.counted), \(bind: line.excess),
                \(bind: try Transaction.json(line.detail)), \(bind: line.createdAt))
                """
            }
            let inserted = try await self.sql.raw(
                """
                INSERT INTO points_ledger (id, user_id, local_date, amount, reason, source_key, source_event_id, multiplier, counted, excess, detail, created_at)
                VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (user_id, source_key) DO NOTHING
                RETURNING id
                """
            ).all()
            guard inserted.count == part.count else { throw StoreError.conflict }
        }
    }

    /// The source keys among `keys` the user was already credited for.
    public func creditedSourceKeys(of user: User.ID, among keys: Set<String>) async throws -> Set<String> {
        try await self.creditedSourceKeys(among: [user: keys])[user] ?? []
    }

    /// The source keys among each person's `keys` they were already credited for.
    public func creditedSourceKeys(among keys: [User.ID: Set<String>]) async throws -> [User.ID: Set<String>] {
        let wanted = keys.filter { !$0.value.isEmpty }
        let all = Set(wanted.values.joined()).sorted()
        var found: [User.ID: Set<String>] = [:]
        for users in wanted.keys.sorted().chunks(of: 200) {
            for sourceKeys in all.chunks(of: 1_000) {
                for row in try await self.sql.raw(
                    """
                    SELECT user_id, source_key FROM points_ledger WHERE user_id IN (\(SQLList(users.map { SQLBind($0.rawValue) })))
                        AND source_key IN (\(SQLList(sourceKeys.map { SQLBind($0) })))
                    """
                ).all() {
                    let user = User.ID(try row.decode(column: "user_id", as: String.self))
                    let key = try row.decode(column: "source_key", as: String.self)
                    if wanted[user]?.contains(key) == true { found[user, default: []].insert(key) }
                }
            }
        }
        return found
    }

    /// The user's ledger lines dated `from` to `to`, in ledger order.
    public func lines(of user: User.ID, from: LocalDate, to: LocalDate) async throws -> [PointsLine] {
        try await self.lines(of: [user], from: from, to: to)[user] ?? []
    }

    /// Several people's ledger lines dated `from` to `to`, each person's in ledger order.
    public func lines(of users: some Collection<User.ID>, from: LocalDate, to: LocalDate) async throws -> [User.ID:
        [PointsLine]]
    {
        var found: [User.ID: [PointsLine]] = [:]
        for part in Set(users).sorted().chunks(of: Self.chunk) {
            for row in try await self.sql.raw(
                """
                SELECT * FROM points_ledger
                WHERE user_id IN (\(SQLList(part.map { SQLBind($0.rawValue) }))) AND local_date >= \(bind: from.iso) AND local_date <= \(bind: to.iso)
                ORDER BY seq
                """
            ).all() {
                found[User.ID(try row.decode(column: "user_id", as: String.self)), default: []].append(
                    try Self.pointsLine(from: row)
                )
            }
        }
        return found
    }

    /// A page of the user's ledger, newest first, before the line numbered `before`.
    public func lines(of user: User.ID, before: Int64?, limit: Int) async throws -> [PointsLine] {
        try await self.sql.raw(
            """
            SELECT * FROM points_ledger
            WHERE user_id = \(bind: user.rawValue) AND seq < \(bind: before ?? Int64.max)
            ORDER BY seq DESC LIMIT \(bind: limit)
            """
        ).all().map(Self.pointsLine(from:))
    }

    /// Every line of the user's ledger, in ledger order (for replay).
    public func allLines(of user: User.ID) async throws -> [PointsLine] {
        try await self.sql.raw("SELECT * FROM points_ledger WHERE user_id = \(bind: user.rawValue) ORDER BY seq").all()
            .map(Self.pointsLine(from:))
    }

    /// The lines crediting `event`, reversals included.
    public func lines(of user: User.ID, crediting event: ActivityEvent.ID) async throws -> [PointsLine] {
        try await self.sql.raw(
            "SELECT * FROM points_ledger WHERE user_id = \(bind: user.rawValue) AND source_event_id = \(bind: event.rawValue) ORDER BY seq"
        ).all().map(Self.pointsLine(from:))
    }

    public func stats(of user: User.ID) async throws -> RewardStats? {
        try await self.stats(of: [user])[user]
    }

    /// Several people's stats, those who have any.
    public func stats(of users: some Collection<User.ID>) async throws -> [User.ID: RewardStats] {
        var found: [User.ID: RewardStats] = [:]
        let decoder = JSONDecoder()
        for part in Set(users).sorted().chunks(of: Self.chunk) {
            for row in try await self.sql.raw(
                "SELECT * FROM reward_stats WHERE user_id IN (\(SQLList(part.map { SQLBind($0.rawValue) })))"
            ).all() {
                let counters = try decoder.decode(
                    [String: Int].self,
                    from: Data(try row.decode(column: "counters", as: String.self).utf8)
                )
                found[User.ID(try row.decode(column: "user_id", as: String.self))] = RewardStats(
                    totalPoints: try row.decode(column: "total_points", as: Int.self),
                    level: try row.decode(column: "level", as: Int.self),
                    counters: Dictionary(
                        uniqueKeysWithValues: counters.compactMap { key, value in
                            Badge.Counter(rawValue: key).map { ($0, value) }
                        }
                    )
                )
            }
        }
        return found
    }

    public func save(_ stats: RewardStats, of user: User.ID, at now: Date) async throws {
        try await self.save([user: stats], at: now)
    }

    /// Writes several people's stats, many in one statement.
    public func save(_ stats: [User.ID: RewardStats], at now: Date) async throws {
        for part in stats.sorted(by: { $0.key < $1.key }).chunks(of: Self.chunk) {
            let rows = try part.map { user, stats -> SQLQueryString in
                let counters = Dictionary(uniqueKeysWithValues: stats.counters.map { ($0.key.rawValue, $0.value) })
                return """
                    (\(bind: user.rawValue), \(bind: stats.totalPoints), \(bind: stats.level), \(bind: try Transaction.json(counters)), \(bind: now))
                    """
            }
            try await self.sql.raw(
                """
                INSERT INTO reward_stats (user_id, total_points, level, counters, updated_at) VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (user_id) DO UPDATE SET total_points = excluded.total_points, level = excluded.level,
                    counters = excluded.counters, updated_at = excluded.updated_at
                """
            ).run()
        }
    }

    /// The badges the user unlocked, oldest first.
    public func unlockedBadges(of user: User.ID) async throws -> [UnlockedBadge] {
        try await self.unlockedBadges(of: [user])[user] ?? []
    }

    /// The badges each of several people unlocked, oldest first; those with none absent.
    public func unlockedBadges(of users: some Collection<User.ID>) async throws -> [User.ID: [UnlockedBadge]] {
        var found: [User.ID: [UnlockedBadge]] = [:]
        for part in Set(users).sorted().chunks(of: Self.chunk) {
            for row in try await self.sql.raw(
                """
                SELECT * FROM user_badges WHERE user_id IN (\(SQLList(part.map { SQLBind($0.rawValue) })))
                ORDER BY user_id, unlocked_at, badge_id
                """
            ).all() {
                found[User.ID(try row.decode(column: "user_id", as: String.self)), default: []].append(
                    UnlockedBadge(
                        badgeID: try row.decode(column: "badge_id", as: String.self),
                        name: try row.decode(column: "name", as: String.self),
                        date: try Transaction.date(row, "local_date"),
                        unlockedAt: try row.decode(column: "unlocked_at", as: Date.self)
                    )
                )
            }
        }
        return found
    }

    /// Unlocks badges; a badge already unlocked is an error (the transaction must be rolled back).
    public func insert(_ badges: [UnlockedBadge], of user: User.ID) async throws {
        try await self.insert(badges: [user: badges])
    }

    /// Unlocks several people's badges, many in one statement; one already unlocked is an error.
    public func insert(badges: [User.ID: [UnlockedBadge]]) async throws {
        let all = badges.sorted { $0.key < $1.key }.flatMap { user, badges in badges.map { (user, $0) } }
        for part in all.chunks(of: Self.chunk) {
            let rows = part.map { user, badge -> SQLQueryString in
                "(\(bind: user.rawValue), \(bind: badge.badgeID), \(bind: badge.name), \(bind: badge.date.iso), \(bind: badge.unlockedAt))"
            }
            let inserted = try await self.sql.raw(
                """
                INSERT INTO user_badges (user_id, badge_id, name, local_date, unlocked_at) VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (user_id, badge_id) DO NOTHING RETURNING badge_id
                """
            ).all()
            guard inserted.count == part.count else { throw StoreError.conflict }
        }
    }

    public func badgeShowcase(of user: User.ID) async throws -> [String] {
        try await self.sql.raw("SELECT badge_ids FROM badge_showcases WHERE user_id = \(bind: user.rawValue)").first()
            .map {
                try JSONDecoder().decode(
                    [String].self,
                    from: Data(try $0.decode(column: "badge_ids", as: String.self).utf8)
                )
            } ?? []
    }

    public func saveBadgeShowcase(_ badges: [String], of user: User.ID, at now: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO badge_showcases (user_id, badge_ids, updated_at) VALUES (\(bind: user.rawValue), \(bind: try Transaction.json(badges)), \(bind: now))
            ON CONFLICT (user_id) DO UPDATE SET badge_ids = excluded.badge_ids, updated_at = excluded.updated_at
            """
        ).run()
    }

    /// How many users who recorded an activity since `since` hold each badge, and how many such users there are.
    public func badgeHolders(activeSince since: Date) async throws -> (holders: [String: Int], activeUsers: Int) {
        let active = "SELECT DISTINCT user_id FROM activity_events WHERE received_at >= "
        let holders = try await self.sql.raw(
            """
            SELECT badge_id, COUNT(*) AS holders FROM user_badges
            WHERE user_id IN (\(unsafeRaw: active)\(bind: since)) GROUP BY badge_id
            """
        ).all()
        let count = try await self.sql.raw(
            "SELECT COUNT(*) AS users FROM (\(unsafeRaw: active)\(bind: since)) AS active"
        ).first()
        return (
            Dictionary(
                uniqueKeysWithValues: try holders.map {
                    (try $0.decode(column: "badge_id", as: String.self), try $0.decode(column: "holders", as: Int.self))
                }
            ),
            try count?.decode(column: "users", as: Int.self) ?? 0
        )
    }

    /// Records what happened (a level reached, a badge unlocked) for the feed and notifications.
    public func insert(_ events: [RewardEvent], of user: User.ID) async throws {
        try await self.insert(events: [user: events])
    }

    /// Records what happened to several people, many in one statement.
    public func insert(events: [User.ID: [RewardEvent]]) async throws {
        let all = events.sorted { $0.key < $1.key }.flatMap { user, events in events.map { (user, $0) } }
        for part in all.chunks(of: Self.chunk) {
            let rows = try part.map { user, event -> SQLQueryString in
                """
                (\(bind: event.id), \(bind: user.rawValue), \(bind: event.kind.rawValue), \(bind: event.date.iso), \(bind: try Transaction.json(event.data)),
                \(bind: event.createdAt))
                """
            }
            try await self.sql.raw(
                "INSERT INTO reward_events (id, user_id, kind, local_date, data, created_at) VALUES \(rows.joined(separator: ", "))"
            ).run()
        }
    }

    public func rewardEvents(of user: User.ID) async throws -> [RewardEvent] {
        try await self.sql.raw(
            "SELECT * FROM reward_events WHERE user_id = \(bind: user.rawValue) ORDER BY created_at, id"
        ).all().map { row in
            RewardEvent(
                id: try row.decode(column: "id", as: String.self),
                kind: RewardEvent.Kind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .badgeUnlocked,
                date: try Transaction.date(row, "local_date"),
                data: try JSONDecoder().decode(
                    [String: String].self,
                    from: Data(try row.decode(column: "data", as: String.self).utf8)
                ),
                createdAt: try row.decode(column: "created_at", as: Date.self)
            )
        }
    }

    private static func pointsLine(from row: any SQLRow) throws -> PointsLine {
        PointsLine(
            id: PointsLine.ID(try row.decode(column: "id", as: String.self)),
            date: try Transaction.date(row, "local_date"),
            amount: try row.decode(column: "amount", as: Int.self),
            reason: PointsLine.Reason(rawValue: try row.decode(column: "reason", as: String.self)) ?? .badge,
            sourceKey: try row.decode(column: "source_key", as: String.self),
            sourceEventID: try row.decode(column: "source_event_id", as: String?.self).map(ActivityEvent.ID.init),
            multiplier: try row.decode(column: "multiplier", as: Double?.self),
            counted: try row.decode(column: "counted", as: Int.self),
            excess: try row.decode(column: "excess", as: Int.self),
            detail: try JSONDecoder().decode(
                PointsLine.Detail.self,
                from: Data(try row.decode(column: "detail", as: String.self).utf8)
            ),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            sequence: try row.decode(column: "seq", as: Int64.self)
        )
    }
}

/// Something a user reached, kept for the feed and the notification engine.
public struct RewardEvent: Equatable, Sendable {
    public var id: String
    public var kind: Kind
    public var date: LocalDate
    public var data: [String: String]
    public var createdAt: Date

    public init(id: String, kind: Kind, date: LocalDate, data: [String: String], createdAt: Date) {
        self.id = id
        self.kind = kind
        self.date = date
        self.data = data
        self.createdAt = createdAt
    }

    public enum Kind: String, Sendable {
        case levelReached = "level_reached"
        case badgeUnlocked = "badge_unlocked"
        case weeklyBonus = "weekly_bonus"
        case weeklyChallengeCompleted = "weekly_challenge_completed"
    }
}
