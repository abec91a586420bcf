public import FitCircleCore
public import Foundation
import SQLKit

extension ChallengeQueries {
    /// How many rows one statement writes or names: well under both databases' limits on bound values.
    static let chunk = 500

    /// The users' records; `locking` (settlement, at that instant) locks their rows, made first where
    /// missing, in id order, so two settlements sharing a participant take turns and neither loses the
    /// other's step.
    public func records(of users: [User.ID], locking now: Date? = nil) async throws -> [User.ID: ChallengeRecord] {
        var found: [User.ID: ChallengeRecord] = [:]
        let decoder = JSONDecoder()
        let users = users.sorted()
        if let now {
            let empty = try Transaction.json(ChallengeRecord())
            for part in stride(from: 0, to: users.count, by: Self.chunk).map({
                Array(users[$0..<min($0 + Self.chunk, users.count)])
            }) {
                let rows = part.map { user -> SQLQueryString in "(\(bind: user.rawValue), \(bind: empty), \(bind: now))"
                }
                try await self.tx.sql.raw(
                    "INSERT INTO challenge_records (user_id, record, updated_at) VALUES \(rows.joined(separator: ", ")) ON CONFLICT (user_id) DO NOTHING"
                ).run()
            }
        }
        let lock = now != nil && self.tx.dialect == .postgres ? " ORDER BY user_id FOR UPDATE" : ""
        for part in stride(from: 0, to: users.count, by: Self.chunk).map({
            Array(users[$0..<min($0 + Self.chunk, users.count)])
        }) {
            for row in try await self.tx.sql.raw(
                "SELECT user_id, record FROM challenge_records WHERE user_id IN (\(SQLList(part.map { SQLBind($0.rawValue) })))\(unsafeRaw: lock)"
            ).all() {
                found[User.ID(try row.decode(column: "user_id", as: String.self))] =
                    try decoder.decode(
                        ChallengeRecord.self,
                        from: Data(try row.decode(column: "record", as: String.self).utf8)
                    )
            }
        }
        return found
    }

    public func save(records: [User.ID: ChallengeRecord], at now: Date) async throws {
        let rows = try records.sorted { $0.key < $1.key }.map { user, record -> SQLQueryString in
            "(\(bind: user.rawValue), \(bind: try Transaction.json(record)), \(bind: now))"
        }
        for part in stride(from: 0, to: rows.count, by: Self.chunk).map({
            Array(rows[$0..<min($0 + Self.chunk, rows.count)])
        }) {
            try await self.tx.sql.raw(
                """
                INSERT INTO challenge_records (user_id, record, updated_at) VALUES \(part.joined(separator: ", "))
                ON CONFLICT (user_id) DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at
                """
            ).run()
        }
    }

    /// Counts a challenge made by `user` (`created`) or a person joining one of theirs (`hosted`).
    public func count(_ column: HostCount, of user: User.ID, at now: Date) async throws {
        try await self.tx.sql.raw(
            """
            INSERT INTO challenge_records (user_id, record, updated_at, \(unsafeRaw: column.rawValue))
            VALUES (\(bind: user.rawValue), \(bind: try Transaction.json(ChallengeRecord())), \(bind: now), 1)
            ON CONFLICT (user_id) DO UPDATE SET \(unsafeRaw: column.rawValue) = challenge_records.\(unsafeRaw: column.rawValue) + 1
            """
        ).run()
    }

    public enum HostCount: String, Sendable { case created, hosted }

    /// The badge counters kept for each person beside their record: what they made and hosted, the different
    /// people they took part in a completed challenge with ("Social Butterfly: challenge 20 different
    /// people"), and the most such challenges with one of them ("Friendly Rivalry") — friends or not. Only
    /// challenges made among people count: those of at most `ChallengeInput.defaultMaxParticipants`; a
    /// public crowd of thousands is not challenging each of them.
    public func socialCounts(of users: [User.ID]) async throws -> [User.ID: SocialCounts] {
        var found: [User.ID: SocialCounts] = [:]
        for part in Set(users).sorted().chunks(of: Self.chunk) {
            let list = SQLList(part.map { SQLBind($0.rawValue) })
            for row in try await self.tx.sql.raw(
                "SELECT user_id, created, hosted FROM challenge_records WHERE user_id IN (\(list))"
            ).all() {
                let user = User.ID(try row.decode(column: "user_id", as: String.self))
                found[user, default: SocialCounts()].created = try row.decode(column: "created", as: Int?.self) ?? 0
                found[user, default: SocialCounts()].hosted = try row.decode(column: "hosted", as: Int?.self) ?? 0
            }
            for row in try await self.tx.sql.raw(
                """
                SELECT met.me, COUNT(*) AS opponents, MAX(met.times) AS most FROM (
                    SELECT me.user_id AS me, other.user_id AS person, COUNT(*) AS times
                    FROM challenge_participants me
                    JOIN challenges c ON c.id = me.challenge_id
                    JOIN challenge_participants other ON other.challenge_id = me.challenge_id AND other.user_id <> me.user_id
                    WHERE me.user_id IN (\(list)) AND me.state = 'joined' AND other.state = 'joined'
                        AND c.settled_at IS NOT NULL AND c.cancelled_at IS NULL AND c.max_participants <= \(bind: ChallengeInput.defaultMaxParticipants)
                    GROUP BY me.user_id, other.user_id
                ) AS met GROUP BY met.me
                """
            ).all() {
                let user = User.ID(try row.decode(column: "me", as: String.self))
                found[user, default: SocialCounts()].opponents = try row.decode(column: "opponents", as: Int.self)
                found[user, default: SocialCounts()].mostWithOne = try row.decode(column: "most", as: Int?.self) ?? 0
            }
        }
        return found
    }

    public struct SocialCounts: Equatable, Sendable {
        public var created = 0
        public var hosted = 0
        public var opponents = 0
        public var mostWithOne = 0

        public init() {}
    }

    /// The participants' levels now.
    public func levels(of users: [User.ID]) async throws -> [User.ID: Int] {
        var found: [User.ID: Int] = [:]
        for part in stride(from: 0, to: users.count, by: Self.chunk).map({
            Array(users[$0..<min($0 + Self.chunk, users.count)])
        }) {
            for row in try await self.tx.sql.raw(
                "SELECT user_id, level FROM reward_stats WHERE user_id IN (\(SQLList(part.map { SQLBind($0.rawValue) })))"
            ).all() {
                found[User.ID(try row.decode(column: "user_id", as: String.self))] = try row.decode(
                    column: "level",
                    as: Int.self
                )
            }
        }
        return found
    }

    /// When each participant's first workout of one of `visibilities` in its challenge's span started (who
    /// got going last "started in last place"), for many challenges at once: by challenge, then by user.
    public func firstWorkouts(in challenges: [Challenge], visibilities: Set<ActivityVisibility>) async throws
        -> [Challenge.ID: [User.ID: Date]]
    {
        guard !visibilities.isEmpty else { return [:] }
        let shown = SQLList(visibilities.sorted { $0.rawValue < $1.rawValue }.map { SQLBind($0.rawValue) })
        var found: [Challenge.ID: [User.ID: Date]] = [:]
        for part in challenges.chunks(of: Self.chunk) {
            for row in try await self.tx.sql.raw(
                """
                SELECT p.challenge_id, e.user_id, MIN(e.occurred_at) AS first FROM challenge_participants p
                JOIN challenges c ON c.id = p.challenge_id
                JOIN activity_events e ON e.user_id = p.user_id AND e.kind = 'workout' AND e.deleted_at IS NULL
                    AND e.occurred_at >= c.starts_at AND e.occurred_at < c.ends_at AND e.visibility IN (\(shown))
                WHERE p.challenge_id IN (\(SQLList(part.map { SQLBind($0.id.rawValue) }))) AND p.state = 'joined'
                GROUP BY p.challenge_id, e.user_id
                """
            ).all() {
                found[Challenge.ID(try row.decode(column: "challenge_id", as: String.self)), default: [:]][
                    User.ID(try row.decode(column: "user_id", as: String.self))
                ] = try row.decode(column: "first", as: Date.self)
            }
        }
        return found
    }

    /// Every pair of friends who both took part in each of these challenges, both ways, by challenge.
    public func friendPairs(in ids: [Challenge.ID]) async throws -> [Challenge.ID: [(user: User.ID, rival: User.ID)]] {
        var found: [Challenge.ID: [(user: User.ID, rival: User.ID)]] = [:]
        for part in ids.chunks(of: Self.chunk) {
            for row in try await self.tx.sql.raw(
                """
                SELECT a.challenge_id, f.user_id, f.friend_id FROM friendships f
                JOIN challenge_participants a ON a.user_id = f.user_id AND a.state = 'joined'
                JOIN challenge_participants b ON b.user_id = f.friend_id AND b.challenge_id = a.challenge_id AND b.state = 'joined'
                WHERE a.challenge_id IN (\(SQLList(part.map { SQLBind($0.rawValue) })))
                ORDER BY a.challenge_id, f.user_id, f.friend_id
                """
            ).all() {
                found[Challenge.ID(try row.decode(column: "challenge_id", as: String.self)), default: []].append(
                    (
                        User.ID(try row.decode(column: "user_id", as: String.self)),
                        User.ID(try row.decode(column: "friend_id", as: String.self))
                    )
                )
            }
        }
        return found
    }

    public func rivalries(of pairs: [(user: User.ID, rival: User.ID)]) async throws -> [String: Rivalry] {
        var found: [String: Rivalry] = [:]
        let decoder = JSONDecoder()
        for part in stride(from: 0, to: pairs.count, by: Self.chunk).map({
            Array(pairs[$0..<min($0 + Self.chunk, pairs.count)])
        }) {
            let matches = part.map { pair -> SQLQueryString in
                "(user_id = \(bind: pair.user.rawValue) AND rival_id = \(bind: pair.rival.rawValue))"
            }
            for row in try await self.tx.sql.raw("SELECT * FROM rivalries WHERE \(matches.joined(separator: " OR "))")
                .all()
            {
                let key = Self.pairKey(
                    User.ID(try row.decode(column: "user_id", as: String.self)),
                    User.ID(try row.decode(column: "rival_id", as: String.self))
                )
                found[key] = try decoder.decode(
                    Rivalry.self,
                    from: Data(try row.decode(column: "record", as: String.self).utf8)
                )
            }
        }
        return found
    }

    public func save(rivalries: [(user: User.ID, rival: User.ID, rivalry: Rivalry)]) async throws {
        let rows = try rivalries.map { entry -> SQLQueryString in
            """
            (\(bind: entry.user.rawValue), \(bind: entry.rival.rawValue), \(bind: entry.rivalry.meetings), \(bind: entry.rivalry.wins),
            \(bind: entry.rivalry.losses), \(bind: try Transaction.json(entry.rivalry)))
            """
        }
        for part in stride(from: 0, to: rows.count, by: Self.chunk).map({
            Array(rows[$0..<min($0 + Self.chunk, rows.count)])
        }) {
            try await self.tx.sql.raw(
                """
                INSERT INTO rivalries (user_id, rival_id, meetings, wins, losses, record) VALUES \(part.joined(separator: ", "))
                ON CONFLICT (user_id, rival_id) DO UPDATE SET meetings = excluded.meetings, wins = excluded.wins, losses = excluded.losses,
                    record = excluded.record
                """
            ).run()
        }
    }

    public static func pairKey(_ user: User.ID, _ rival: User.ID) -> String { "\(user.rawValue)|\(rival.rawValue)" }

    /// The user's rivals ranked by `order` (`meetings`, `wins` or `losses`), with their rivalry.
    public func rivals(of user: User.ID, by order: RivalOrder, limit: Int) async throws -> [(
        rival: User.ID, rivalry: Rivalry
    )] {
        let decoder = JSONDecoder()
        return try await self.tx.sql.raw(
            """
            SELECT rival_id, record FROM rivalries WHERE user_id = \(bind: user.rawValue) AND \(unsafeRaw: order.rawValue) > 0
            ORDER BY \(unsafeRaw: order.rawValue) DESC, meetings DESC, rival_id LIMIT \(bind: limit)
            """
        ).all().map { row in
            (
                User.ID(try row.decode(column: "rival_id", as: String.self)),
                try decoder.decode(Rivalry.self, from: Data(try row.decode(column: "record", as: String.self).utf8))
            )
        }
    }

    public enum RivalOrder: String, Sendable { case meetings, wins, losses }

    /// The settled challenges both took part in, newest first: the challenge and each one's result.
    public func meetings(of user: User.ID, with rival: User.ID, limit: Int) async throws -> [(
        challenge: Challenge, mine: ChallengeParticipant, theirs: ChallengeParticipant
    )] {
        try await self.tx.sql.raw(
            """
            SELECT c.*, a.challenge_id AS a_challenge_id, a.user_id AS a_user_id, a.state AS a_state, a.staked AS a_staked, a.invited_by AS a_invited_by,
                a.updated_at AS a_updated_at, a.final_rank AS a_final_rank, a.final_value AS a_final_value, a.won AS a_won, a.payout AS a_payout,
                a.paid_at AS a_paid_at,
                b.challenge_id AS b_challenge_id, b.user_id AS b_user_id, b.state AS b_state, b.staked AS b_staked, b.invited_by AS b_invited_by,
                b.updated_at AS b_updated_at, b.final_rank AS b_final_rank, b.final_value AS b_final_value, b.won AS b_won, b.payout AS b_payout,
                b.paid_at AS b_paid_at
            FROM challenge_participants a JOIN challenge_participants b ON b.challenge_id = a.challenge_id AND b.user_id = \(bind: rival.rawValue)
            JOIN challenges c ON c.id = a.challenge_id
            WHERE a.user_id = \(bind: user.rawValue) AND a.state = 'joined' AND b.state = 'joined' AND c.settled_at IS NOT NULL
            ORDER BY c.settled_at DESC, c.id DESC LIMIT \(bind: limit)
            """
        ).all().map { row in
            (
                try Self.challenge(from: row), try Self.participant(from: row, prefix: "a_"),
                try Self.participant(from: row, prefix: "b_")
            )
        }
    }

    /// Every settled challenge's id, in settlement order (ties by id). Replay pages through these exact keys:
    /// a settlement instant read back and bound again is not always the same double (SQLite keeps REAL
    /// seconds since 1970, `Date` seconds since 2001), and a keyset on it could return its last row forever.
    public func settledOrder() async throws -> [Challenge.ID] {
        try await self.tx.sql.raw("SELECT id FROM challenges WHERE settled_at IS NOT NULL ORDER BY settled_at, id")
            .all()
            .map { Challenge.ID(try $0.decode(column: "id", as: String.self)) }
    }

    /// The challenges of `ids`, in that order.
    public func challenges(_ ids: [Challenge.ID]) async throws -> [Challenge] {
        guard !ids.isEmpty else { return [] }
        let found = try await self.tx.sql.raw(
            "SELECT * FROM challenges WHERE id IN (\(SQLList(ids.map { SQLBind($0.rawValue) })))"
        ).all()
            .map { try Self.challenge(from: $0) }
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    /// Every stored record and rivalry, for replay's comparison.
    public func allRecords() async throws -> (records: [User.ID: ChallengeRecord], rivalries: [String: Rivalry]) {
        let decoder = JSONDecoder()
        var records: [User.ID: ChallengeRecord] = [:]
        for row in try await self.tx.sql.raw("SELECT user_id, record FROM challenge_records").all() {
            records[User.ID(try row.decode(column: "user_id", as: String.self))] =
                try decoder.decode(
                    ChallengeRecord.self,
                    from: Data(try row.decode(column: "record", as: String.self).utf8)
                )
        }
        var rivalries: [String: Rivalry] = [:]
        for row in try await self.tx.sql.raw("SELECT user_id, rival_id, record FROM rivalries").all() {
            rivalries[
                Self.pairKey(
                    User.ID(try row.decode(column: "user_id", as: String.self)),
                    User.ID(try row.decode(column: "rival_id", as: String.self))
                )
            ] =
                try decoder.decode(Rivalry.self, from: Data(try row.decode(column: "record", as: String.self).utf8))
        }
        return (records, rivalries)
    }
}
