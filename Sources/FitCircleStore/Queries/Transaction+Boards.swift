public import FitCircleCore
public import Foundation
import SQLKit

/// A board's rows in SQL (`board_scores`): what the in-memory rank index is loaded from and checked
/// against, and what answers when a node has not loaded the board. Every read walks the order index
/// (owner, period, start, value desc, reached, user) by ranges: "before a key" is the values above it plus,
/// at its own value, those who reached it earlier — two range scans, never a sort of the board.
extension Transaction {
    /// The queries of leaderboards: scores, ranks and snapshots (`board_scores`, `board_snapshots`).
    public var boards: BoardQueries { BoardQueries(tx: self) }
}

public struct BoardQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    public func score(on board: BoardID, of user: User.ID) async throws -> BoardKey? {
        try await self.sql.raw(
            "SELECT * FROM board_scores WHERE \(self.on(board)) AND user_id = \(bind: user.rawValue)"
        ).first().map(Self.key(from:))
    }

    public func saveScore(_ key: BoardKey, on board: BoardID) async throws {
        try await self.sql.raw(
            """
            INSERT INTO board_scores (owner_kind, owner_id, period, period_start, user_id, value, reached_ms)
            VALUES (\(bind: board.owner.kind.rawValue), \(bind: board.owner.id), \(bind: board.period.rawValue), \(bind: board.start.iso), \(bind: key.user.rawValue),
                \(bind: key.value), \(bind: key.reachedMilliseconds))
            ON CONFLICT (owner_id, period, period_start, user_id) DO UPDATE SET value = excluded.value, reached_ms = excluded.reached_ms
            """
        ).run()
    }

    public func deleteScore(on board: BoardID, of user: User.ID) async throws {
        try await self.sql.raw("DELETE FROM board_scores WHERE \(self.on(board)) AND user_id = \(bind: user.rawValue)")
            .run()
    }

    /// The whole board in order.
    public func keys(_ board: BoardID) async throws -> [BoardKey] {
        try await self.sql.raw(
            "SELECT value, reached_ms, user_id FROM board_scores WHERE \(self.on(board)) ORDER BY value DESC, reached_ms, user_id"
        ).all().map(Self.key(from:))
    }

    /// Whole boards in order, many in one read (settlement): by board, those without rows absent.
    public func keys(_ boards: [BoardID]) async throws -> [BoardID: [BoardKey]] {
        var found: [BoardID: [BoardKey]] = [:]
        for part in boards.chunks(of: 200) {
            let named = Dictionary(
                part.map { ("\($0.owner.id)|\($0.period.rawValue)|\($0.start.iso)", $0) },
                uniquingKeysWith: { first, _ in first }
            )
            let matches = part.map { board -> SQLQueryString in "(\(self.on(board)))" }
            for row in try await self.sql.raw(
                """
                SELECT owner_id, period, period_start, value, reached_ms, user_id FROM board_scores
                WHERE \(matches.joined(separator: " OR ")) ORDER BY owner_id, period, period_start, value DESC, reached_ms, user_id
                """
            ).all() {
                let name = [
                    try row.decode(column: "owner_id", as: String.self),
                    try row.decode(column: "period", as: String.self),
                    try row.decode(column: "period_start", as: String.self),
                ].joined(separator: "|")
                guard let board = named[name] else { continue }
                found[board, default: []].append(try Self.key(from: row))
            }
        }
        return found
    }

    public func keys(_ board: BoardID, of users: [User.ID]) async throws -> [BoardKey] {
        guard !users.isEmpty else { return [] }
        return try await self.sql.raw(
            "SELECT * FROM board_scores WHERE \(self.on(board)) AND user_id IN (\(SQLList(users.map { SQLBind($0.rawValue) })))"
        ).all().map(Self.key(from:))
    }

    public func count(_ board: BoardID) async throws -> Int {
        try await self.tx.count("SELECT COUNT(*) AS n FROM board_scores WHERE \(self.on(board))")
    }

    /// How many rows come before `key` (its member's own row aside).
    public func countBefore(_ key: BoardKey, on board: BoardID) async throws -> Int {
        try await self.tx.count(
            """
            SELECT (SELECT COUNT(*) FROM board_scores WHERE \(self.on(board)) AND value > \(bind: key.value)
                    AND user_id <> \(bind: key.user.rawValue)) +
                (SELECT COUNT(*) FROM board_scores WHERE \(self.on(board)) AND value = \(bind: key.value)
                    AND (reached_ms < \(bind: key.reachedMilliseconds) OR (reached_ms = \(bind: key.reachedMilliseconds) AND user_id < \(bind: key.user.rawValue)))
                    AND user_id <> \(bind: key.user.rawValue)) AS n
            """
        )
    }

    /// Up to `limit` rows after `key` in order (from the top without one).
    public func keys(_ board: BoardID, after key: BoardKey?, limit: Int) async throws -> [BoardKey] {
        guard let key else {
            return try await self.sql.raw(
                "SELECT * FROM board_scores WHERE \(self.on(board)) ORDER BY value DESC, reached_ms, user_id LIMIT \(bind: limit)"
            ).all().map(Self.key(from:))
        }
        let tied = try await self.sql.raw(
            """
            SELECT * FROM board_scores WHERE \(self.on(board)) AND value = \(bind: key.value)
                AND (reached_ms > \(bind: key.reachedMilliseconds) OR (reached_ms = \(bind: key.reachedMilliseconds) AND user_id > \(bind: key.user.rawValue)))
            ORDER BY reached_ms, user_id LIMIT \(bind: limit)
            """
        ).all().map(Self.key(from:))
        let below = try await self.sql.raw(
            """
            SELECT * FROM board_scores WHERE \(self.on(board)) AND value < \(bind: key.value)
            ORDER BY value DESC, reached_ms, user_id LIMIT \(bind: limit)
            """
        ).all().map(Self.key(from:))
        return Array((tied + below).prefix(limit))
    }

    /// Up to `limit` rows just before `key`, in order.
    public func keys(_ board: BoardID, before key: BoardKey, limit: Int) async throws -> [BoardKey] {
        let tied = try await self.sql.raw(
            """
            SELECT * FROM board_scores WHERE \(self.on(board)) AND value = \(bind: key.value)
                AND (reached_ms < \(bind: key.reachedMilliseconds) OR (reached_ms = \(bind: key.reachedMilliseconds) AND user_id < \(bind: key.user.rawValue)))
            ORDER BY reached_ms DESC, user_id DESC LIMIT \(bind: limit)
            """
        ).all().map(Self.key(from:))
        let above = try await self.sql.raw(
            """
            SELECT * FROM board_scores WHERE \(self.on(board)) AND value > \(bind: key.value)
            ORDER BY value, reached_ms DESC, user_id DESC LIMIT \(bind: limit)
            """
        ).all().map(Self.key(from:))
        return Array((tied + above).prefix(limit).reversed())
    }

    private func on(_ board: BoardID) -> SQLQueryString {
        "owner_id = \(bind: board.owner.id) AND period = \(bind: board.period.rawValue) AND period_start = \(bind: board.start.iso)"
    }

    /// Closed periods are kept for circles' boards (the baseline of ▲▼ and the history); a challenge's
    /// final standings are its participants' results instead.
    private func snapshotOn(_ board: BoardID) -> SQLQueryString {
        "circle_id = \(bind: board.owner.id) AND period = \(bind: board.period.rawValue) AND period_start = \(bind: board.start.iso)"
    }

    private static func key(from row: any SQLRow) throws -> BoardKey {
        BoardKey(
            value: try row.decode(column: "value", as: Double.self),
            reachedMilliseconds: try row.decode(column: "reached_ms", as: Int64.self),
            user: User.ID(try row.decode(column: "user_id", as: String.self))
        )
    }
}

/// A member's place on a closed board.
public struct SnapshotRow: Equatable, Sendable {
    public var user: User.ID
    public var rank: Int
    public var value: Double
}

extension BoardQueries {
    /// Keeps the board's ranks as they stand now as its snapshot (replacing an earlier one), under `key`:
    /// the board's own start, or for the all-time board the day that closed.
    public func snapshot(_ board: BoardID, as key: LocalDate, at now: Date) async throws {
        let snapshot = board.starting(key)
        try await self.sql.raw("DELETE FROM circle_board_snapshots WHERE \(self.snapshotOn(snapshot))").run()
        try await self.sql.raw(
            """
            INSERT INTO circle_board_snapshots (circle_id, period, period_start, user_id, rank, value, taken_at)
            SELECT owner_id, period, \(bind: key.iso), user_id, ROW_NUMBER() OVER (ORDER BY value DESC, reached_ms, user_id), value, \(bind: now)
            FROM board_scores WHERE \(self.on(board))
            """
        ).run()
        if case .circle(let circle) = board.owner { try await self.tx.changed(.circle(circle)) }
    }

    public func hasSnapshot(_ board: BoardID) async throws -> Bool {
        try await self.sql.raw("SELECT 1 AS one FROM circle_board_snapshots WHERE \(self.snapshotOn(board)) LIMIT 1")
            .first() != nil
    }

    /// The snapshot's rows for `users` (every row when nil), by rank.
    public func snapshotRows(_ board: BoardID, of users: [User.ID]? = nil, limit: Int = 1_000) async throws
        -> [SnapshotRow]
    {
        let filter: SQLQueryString = users.map { "AND user_id IN (\(SQLList($0.map { SQLBind($0.rawValue) })))" } ?? ""
        if users?.isEmpty == true { return [] }
        return try await self.sql.raw(
            "SELECT * FROM circle_board_snapshots WHERE \(self.snapshotOn(board)) \(filter) ORDER BY rank LIMIT \(bind: limit)"
        ).all().map { row in
            SnapshotRow(
                user: User.ID(try row.decode(column: "user_id", as: String.self)),
                rank: try row.decode(column: "rank", as: Int.self),
                value: try row.decode(column: "value", as: Double.self)
            )
        }
    }

    /// The keys of the circle's snapshots of `period`, newest first, before `before` when given.
    public func snapshotKeys(of circle: FitCircle.ID, period: BoardPeriod, before: LocalDate?, limit: Int) async throws
        -> [LocalDate]
    {
        let bound: SQLQueryString = before.map { "AND period_start < \(bind: $0.iso)" } ?? ""
        return try await self.sql.raw(
            """
            SELECT DISTINCT period_start FROM circle_board_snapshots WHERE circle_id = \(bind: circle.rawValue) AND period = \(bind: period.rawValue)
                \(bound) ORDER BY period_start DESC LIMIT \(bind: limit)
            """
        ).all().compactMap { LocalDate(iso: try $0.decode(column: "period_start", as: String.self)) }
    }

    /// The circles whose home is `zone` and whose competition runs on `date`, not archived.
    public func circles(inTimeZone zone: String, runningOn date: LocalDate) async throws -> [FitCircle] {
        try await self.sql.raw(
            """
            SELECT * FROM circles WHERE time_zone = \(bind: zone) AND archived_at IS NULL AND start_date <= \(bind: date.iso)
                AND (end_date IS NULL OR end_date >= \(bind: date.iso))
            ORDER BY id
            """
        ).all().map(CircleQueries.circle(from:))
    }
}
