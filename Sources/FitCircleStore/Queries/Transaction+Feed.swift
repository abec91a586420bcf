public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of feeds: circles' news, the friends' feed and its index.
    public var feed: FeedQueries { FeedQueries(tx: self) }
}

public struct FeedQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// Adds the item unless one with the same `dedupeKey` is in the circle; answers whether it was added.
    public func insert(_ item: FeedItem, dedupeKey: String) async throws -> Bool {
        let rows = try await self.sql.raw(
            """
            INSERT INTO circle_feed (id, circle_id, kind, actor_id, text, data, dedupe_key, created_at)
            VALUES (\(bind: item.id.rawValue), \(bind: item.circleID.rawValue), \(bind: item.kind.rawValue), \(bind: item.actorID.rawValue),
                \(bind: item.text), \(bind: try Transaction.json(item.data)), \(bind: dedupeKey), \(bind: item.createdAt))
            ON CONFLICT (circle_id, dedupe_key) DO NOTHING RETURNING id
            """
        ).all()
        return !rows.isEmpty
    }

    public func feedItem(_ id: FeedItem.ID, in circle: FitCircle.ID) async throws -> FeedItem? {
        try await self.sql.raw(
            "SELECT * FROM circle_feed WHERE id = \(bind: id.rawValue) AND circle_id = \(bind: circle.rawValue)"
        )
        .first().map(Self.feedItem(from:))
    }

    /// The member's newest item in the circle.
    public func latestFeedItem(of actor: User.ID, in circle: FitCircle.ID) async throws -> FeedItem? {
        try await self.sql.raw(
            """
            SELECT * FROM circle_feed WHERE circle_id = \(bind: circle.rawValue) AND actor_id = \(bind: actor.rawValue)
            ORDER BY created_at DESC, id DESC LIMIT 1
            """
        ).first().map(Self.feedItem(from:))
    }

    /// The circle's items newest first, older than the item `before` when given.
    public func feed(of circle: FitCircle.ID, reader: User.ID, before: FeedItem?, limit: Int) async throws -> [FeedRow]
    {
        let bound: SQLQueryString =
            before.map {
                "AND (f.created_at < \(bind: $0.createdAt) OR (f.created_at = \(bind: $0.createdAt) AND f.id < \(bind: $0.id.rawValue)))"
            } ?? ""
        return try await self.sql.raw(
            """
            SELECT f.*, u.display_name, u.photo_key, u.visibility_photo, u.visibility_board_name,
                (SELECT COUNT(*) FROM circle_encouragements e WHERE e.item_id = f.id) AS encouragements,
                (SELECT COUNT(*) FROM circle_encouragements e WHERE e.item_id = f.id AND e.sender_id = \(bind: reader.rawValue)) AS mine
            FROM circle_feed f JOIN users u ON u.id = f.actor_id
            WHERE f.circle_id = \(bind: circle.rawValue) \(bound)
            ORDER BY f.created_at DESC, f.id DESC LIMIT \(bind: limit)
            """
        ).all().map { row in
            FeedRow(
                item: try Self.feedItem(from: row),
                actorName: try row.decode(column: "display_name", as: String.self),
                actorPhoto: try Transaction.photo(row),
                actorNameAudience: Audience(rawValue: try row.decode(column: "visibility_board_name", as: String.self))
                    ?? .onlyMe,
                encouragements: try row.decode(column: "encouragements", as: Int.self),
                encouraged: try row.decode(column: "mine", as: Int.self) > 0
            )
        }
    }

    /// Records the sender's encouragement of the item; false when they had encouraged it already.
    public func encourage(_ item: FeedItem.ID, by sender: User.ID, message: String?, at now: Date) async throws -> Bool
    {
        return
            !(try await self.sql.raw(
                """
                INSERT INTO circle_encouragements (item_id, sender_id, message, created_at)
                VALUES (\(bind: item.rawValue), \(bind: sender.rawValue), \(bind: message), \(bind: now))
                ON CONFLICT (item_id, sender_id) DO NOTHING RETURNING item_id
                """
            ).all().isEmpty)
    }

    public func encouragementCount(of item: FeedItem.ID) async throws -> Int {
        try await self.tx.count(
            "SELECT COUNT(*) AS n FROM circle_encouragements WHERE item_id = \(bind: item.rawValue)"
        )
    }

    private static func feedItem(from row: any SQLRow) throws -> FeedItem {
        FeedItem(
            id: FeedItem.ID(try row.decode(column: "id", as: String.self)),
            circleID: FitCircle.ID(try row.decode(column: "circle_id", as: String.self)),
            kind: FeedItem.Kind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .submission,
            actorID: User.ID(try row.decode(column: "actor_id", as: String.self)),
            text: try row.decode(column: "text", as: String.self),
            data: try JSONDecoder().decode(
                [String: String].self,
                from: Data(try row.decode(column: "data", as: String.self).utf8)
            ),
            createdAt: try row.decode(column: "created_at", as: Date.self)
        )
    }
}
