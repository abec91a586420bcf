public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of the weekly content.
    public var weeklyContent: WeeklyContentQueries { WeeklyContentQueries(tx: self) }
}

public struct WeeklyContentQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// Publishes `content` (publishing it again keeps the first instant: it was new since then).
    public func publish(_ content: WeeklyContent) async throws {
        try await self.sql.raw(
            """
            INSERT INTO weekly_content (content_key, week, published_at)
            VALUES (\(bind: content.key), \(bind: content.week.description), \(bind: content.publishedAt))
            ON CONFLICT (week, content_key) DO NOTHING
            """
        ).run()
    }

    public func weeklyContent(_ key: String, week: IsoWeek) async throws -> WeeklyContent? {
        try await self.sql.raw(
            "SELECT * FROM weekly_content WHERE week = \(bind: week.description) AND content_key = \(bind: key)"
        ).first().map(Self.weeklyContent(from:))
    }

    /// The week's content that `user` has not seen, in key order (at most `limit`).
    public func unseenContent(of week: IsoWeek, by user: User.ID, limit: Int) async throws -> [WeeklyContent] {
        try await self.sql.raw(
            """
            SELECT c.* FROM weekly_content c
            WHERE c.week = \(bind: week.description) AND NOT EXISTS (
                SELECT 1 FROM weekly_content_seen s
                WHERE s.user_id = \(bind: user.rawValue) AND s.week = c.week AND s.content_key = c.content_key)
            ORDER BY c.content_key LIMIT \(bind: limit)
            """
        ).all().map(Self.weeklyContent(from:))
    }

    /// Records that `user` saw the week's `key`; seeing it again changes nothing.
    public func markSeen(_ key: String, week: IsoWeek, by user: User.ID, at now: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO weekly_content_seen (user_id, week, content_key, seen_at)
            VALUES (\(bind: user.rawValue), \(bind: week.description), \(bind: key), \(bind: now))
            ON CONFLICT (user_id, week, content_key) DO NOTHING
            """
        ).run()
    }

    private static func weeklyContent(from row: any SQLRow) throws -> WeeklyContent {
        WeeklyContent(
            key: try row.decode(column: "content_key", as: String.self),
            week: IsoWeek(try row.decode(column: "week", as: String.self))
                ?? IsoWeek(containing: LocalDate(ordinal: 0)),
            publishedAt: try row.decode(column: "published_at", as: Date.self)
        )
    }
}
