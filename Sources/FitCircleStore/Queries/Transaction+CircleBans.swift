public import FitCircleCore
public import Foundation
import SQLKit

/// Who was removed from a circle and may not rejoin (by code or invitation) until the ban is lifted.
extension CircleQueries {
    private var sql: any SQLDatabase { self.tx.sql }
    public func ban(_ user: User.ID, from circle: FitCircle.ID, by manager: User.ID, at now: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO circle_bans (circle_id, user_id, banned_by, banned_at)
            VALUES (\(bind: circle.rawValue), \(bind: user.rawValue), \(bind: manager.rawValue), \(bind: now))
            ON CONFLICT (circle_id, user_id) DO NOTHING
            """
        ).run()
    }

    /// Lifts the ban; whether there was one.
    public func liftBan(of user: User.ID, from circle: FitCircle.ID) async throws -> Bool {
        !(try await self.sql.raw(
            "DELETE FROM circle_bans WHERE circle_id = \(bind: circle.rawValue) AND user_id = \(bind: user.rawValue) RETURNING user_id"
        ).all()).isEmpty
    }

    public func isBanned(_ user: User.ID, from circle: FitCircle.ID) async throws -> Bool {
        try await self.sql.raw(
            "SELECT 1 AS one FROM circle_bans WHERE circle_id = \(bind: circle.rawValue) AND user_id = \(bind: user.rawValue)"
        ).first() != nil
    }

    /// The circle's bans, the latest first, a page at a time: after `last`, the page before's last (when
    /// and whom it banned).
    public func bans(in circle: FitCircle.ID, after last: InstantKey?, limit: Int) async throws -> [CircleBan] {
        let after: SQLQueryString =
            last.map { "AND \(self.tx.keyset("b.banned_at", "b.user_id", after: $0, descending: true))" } ?? ""
        return try await self.sql.raw(
            """
            SELECT b.*, u.display_name FROM circle_bans b JOIN users u ON u.id = b.user_id
            WHERE b.circle_id = \(bind: circle.rawValue) \(after)
            ORDER BY b.banned_at DESC, b.user_id DESC LIMIT \(bind: limit)
            """
        ).all().map { row in
            CircleBan(
                userID: User.ID(try row.decode(column: "user_id", as: String.self)),
                displayName: try row.decode(column: "display_name", as: String.self),
                bannedBy: User.ID(try row.decode(column: "banned_by", as: String.self)),
                bannedAt: try row.decode(column: "banned_at", as: Date.self)
            )
        }
    }
}
