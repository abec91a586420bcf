public import FitCircleCore
public import Foundation
import SQLKit

/// Deleting an account (spec 004, R11.7): what names the person outside their own rows, and the deletion.
/// Their own rows go with the `users` row (every table's `ON DELETE CASCADE`); these find the rest.
extension Transaction {
    /// The queries of an account's erasure and export.
    public var accounts: AccountQueries { AccountQueries(tx: self) }
}

public struct AccountQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }
    private var dialect: Store.Dialect { self.tx.dialect }

    /// The boards on which `user` has a score now.
    public func boards(holding user: User.ID) async throws -> [BoardID] {
        try await self.sql.raw(
            "SELECT owner_kind, owner_id, period, period_start FROM board_scores WHERE user_id = \(bind: user.rawValue)"
        ).all().compactMap { row in
            guard let period = BoardPeriod(rawValue: try row.decode(column: "period", as: String.self)),
                let kind = BoardOwner.Kind(rawValue: try row.decode(column: "owner_kind", as: String.self))
            else { return nil }
            return BoardID(
                owner: BoardOwner(kind: kind, id: try row.decode(column: "owner_id", as: String.self)),
                period: period,
                start: try Transaction.date(row, "period_start")
            )
        }
    }

    /// The circles `user` owns (members or not: a circle its last member left stays its owner's, archived).
    public func circles(ownedBy user: User.ID) async throws -> [FitCircle] {
        try await self.sql.raw("SELECT * FROM circles WHERE owner_id = \(bind: user.rawValue)").all().map(
            CircleQueries.circle(from:)
        )
    }

    public func deleteCircle(_ id: FitCircle.ID) async throws {
        try await self.sql.raw("DELETE FROM board_scores WHERE owner_id = \(bind: id.rawValue)").run()
        try await self.sql.raw("DELETE FROM circles WHERE id = \(bind: id.rawValue)").run()
        try await self.tx.changed(.circle(id))
    }

    /// Other people's notifications whose copy names `user` (`NotificationNaming`).
    public func notifications(naming user: User.ID) async throws -> [(owner: User.ID, record: NotificationRecord)] {
        try await self.sql.raw("SELECT * FROM notifications WHERE actor_id = \(bind: user.rawValue)").all().map { row in
            (
                User.ID(try row.decode(column: "user_id", as: String.self)),
                try NotificationQueries.notification(from: row)
            )
        }
    }

    /// Rewrites a notification that named a deleted account: its copy and data as `record` has them, no
    /// actor, and a dedupe key of its own (the old one held the person's id).
    public func rewriteNaming(_ record: NotificationRecord) async throws {
        try await self.sql.raw(
            """
            UPDATE notifications SET title = \(bind: record.title), body = \(bind: record.body), data = \(bind: try Transaction.json(record.data)),
                dedupe_key = \(bind: "erased:\(record.id.rawValue)"), actor_id = NULL
            WHERE id = \(bind: record.id.rawValue)
            """
        ).run()
    }

    /// Deletes the account with every row of its own (cascading from `users`), and the rows elsewhere that
    /// hold its id or address: bans it gave pass to the circle's owner, invitations to its address lapse,
    /// and the jobs, rate limits and remembered responses that mention it go. Call it after the circles it
    /// owns found an heir and its mentions in others' notifications were rewritten.
    public func erase(_ user: User) async throws {
        // An id (a UUID) is found wherever it appears; an address only as a whole JSON string, so that
        // ana@example.com takes nothing of joana@example.com's.
        let id = user.id.rawValue
        let address = "\"\(user.email)\""
        try await self.sql.raw(
            "DELETE FROM jobs WHERE \(self.contains("payload", id)) OR \(self.contains("payload", address)) OR \(self.contains("dedupe_key", id))"
        ).run()
        // Remembered responses are base64: their bodies are searched for the encodings of the two.
        let inBodies = (Base64Fragments.of(id) + Base64Fragments.of(address)).map { self.contains("body", $0) }
        try await self.sql.raw(
            "DELETE FROM idempotency_keys WHERE user_id = \(bind: id) OR \(SQLList(inBodies, separator: SQLRaw(" OR ")))"
        ).run()
        try await self.sql.raw("DELETE FROM rate_limits WHERE \(self.contains("limit_key", id))").run()
        try await self.sql.raw("DELETE FROM circle_invitations WHERE lower(email) = lower(\(bind: user.email))").run()
        try await self.sql.raw(
            """
            UPDATE circle_bans SET banned_by = (SELECT owner_id FROM circles WHERE circles.id = circle_bans.circle_id)
            WHERE banned_by = \(bind: id)
            """
        ).run()
        // Their reactions go with them (cascading), from workouts whose pages show other authors.
        let reacted = try await self.sql.raw(
            "SELECT DISTINCT activity_id FROM activity_reactions WHERE user_id = \(bind: id)"
        ).all()
        try await self.tx.changed(
            try reacted.map { .activity(ActivityEvent.ID(try $0.decode(column: "activity_id", as: String.self))) }
        )
        try await self.sql.raw("DELETE FROM users WHERE id = \(bind: id)").run()
        try await self.tx.changed(.user(user.id))
    }

    /// Where some cell of the database holds `needle` (case-insensitively), as `table.column` with the
    /// number of rows: every column of every table, read in full. For tests and operators proving that a
    /// deletion left nothing; never on a request's path.
    public func cells(containing needle: String) async throws -> [String: Int] {
        var found: [String: Int] = [:]
        for (table, column, _) in try await self.schemaColumns() {
            let quoted = "\"\(table)\".\"\(column)\""
            let count =
                try await self.sql.raw(
                    "SELECT COUNT(*) AS n FROM \"\(unsafeRaw: table)\" WHERE \(self.contains("lower(CAST(\(quoted) AS TEXT))", needle.lowercased()))"
                ).first()?.decode(column: "n", as: Int.self) ?? 0
            if count > 0 { found["\(table).\(column)"] = count }
        }
        return found
    }

    /// The columns of every table of the schema (or of `table`) in order, with their declared types.
    public func schemaColumns(of table: String? = nil) async throws -> [(table: String, column: String, type: String)] {
        var columns: [(table: String, column: String, type: String)] = []
        if self.dialect == .postgres {
            let only: SQLQueryString = table.map { "AND table_name = \(bind: $0)" } ?? ""
            for row in try await self.sql.raw(
                """
                SELECT table_name, column_name, data_type FROM information_schema.columns
                WHERE table_schema = current_schema() \(only) ORDER BY table_name, ordinal_position
                """
            ).all() {
                columns.append(
                    (
                        try row.decode(column: "table_name", as: String.self),
                        try row.decode(column: "column_name", as: String.self),
                        try row.decode(column: "data_type", as: String.self)
                    )
                )
            }
        } else {
            let only: SQLQueryString = table.map { "AND name = \(bind: $0)" } ?? ""
            for row in try await self.sql.raw(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \(only) ORDER BY name"
            ).all() {
                let name = try row.decode(column: "name", as: String.self)
                for column in try await self.sql.raw("SELECT name, type FROM pragma_table_info(\(bind: name))").all() {
                    columns.append(
                        (
                            name, try column.decode(column: "name", as: String.self),
                            try column.decode(column: "type", as: String.self)
                        )
                    )
                }
            }
        }
        return columns
    }

    /// `expression` holds `text` (no pattern characters: an address may hold `_` or `%`).
    private func contains(_ expression: String, _ text: String) -> SQLQueryString {
        self.dialect == .postgres
            ? "strpos(\(unsafeRaw: expression), \(bind: text)) > 0"
            : "instr(\(unsafeRaw: expression), \(bind: text)) > 0"
    }
}
