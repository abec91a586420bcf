public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of the analytics ledger (`analytics_events`).
    public var events: AnalyticsEventQueries { AnalyticsEventQueries(tx: self) }
}

/// The apps' and the server's analytics events, one row per user and key.
public struct AnalyticsEventQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// App events of `user` that arrived since `since` (the daily quota).
    public func appEventCount(of user: User.ID, receivedSince since: Date) async throws -> Int {
        try await self.tx.count(
            "SELECT COUNT(*) AS n FROM analytics_events WHERE user_id = \(bind: user.rawValue) AND source = 'app' AND received_at >= \(bind: since)"
        )
    }

    /// Deletes up to `limit` app events that arrived before `before`; answers how many went.
    public func purgeAppEvents(receivedBefore before: Date, limit: Int) async throws -> Int {
        try await self.sql.raw(
            """
            DELETE FROM analytics_events WHERE (user_id, event_key) IN
                (SELECT user_id, event_key FROM analytics_events WHERE source = 'app' AND received_at < \(bind: before) LIMIT \(bind: limit))
            RETURNING event_key
            """
        ).all().count
    }

    /// Stores each event unless its user already has one with its key; `forward` marks the new ones for the
    /// forwarder.
    /// - Returns: the keys stored, per user (the others were there already).
    @discardableResult
    public func record(_ events: [AnalyticsEvent], forward: Bool) async throws -> Set<EventKey> {
        var stored: Set<EventKey> = []
        for start in stride(from: 0, to: events.count, by: 250) {
            let rows = try events[start..<min(start + 250, events.count)].map { event -> SQLQueryString in
                """
                (\(bind: event.userID.rawValue), \(bind: event.key), \(bind: event.name), \(bind: event.source.rawValue), \(bind: event.occurredAt),
                \(bind: event.localDate.iso), \(bind: try Transaction.json(event.properties)), \(bind: event.receivedAt), \(bind: forward ? 1 : nil as Int?))
                """
            }
            let inserted = try await self.sql.raw(
                """
                INSERT INTO analytics_events (user_id, event_key, name, source, occurred_at, local_date, properties, received_at, forward_pending)
                VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (user_id, event_key) DO NOTHING
                RETURNING user_id, event_key
                """
            ).all()
            for row in inserted {
                stored.insert(
                    EventKey(
                        user: User.ID(try row.decode(column: "user_id", as: String.self)),
                        key: try row.decode(column: "event_key", as: String.self)
                    )
                )
            }
        }
        return stored
    }

    /// A user's events, newest first (the account export reads the table itself; this is for tests and the console).
    public func of(_ user: User.ID, limit: Int) async throws -> [AnalyticsEvent] {
        try await self.sql.raw(
            "SELECT * FROM analytics_events WHERE user_id = \(bind: user.rawValue) ORDER BY occurred_at DESC, event_key LIMIT \(bind: limit)"
        ).all().map(Self.event(from:))
    }

    /// Every event, oldest first (for tests' oracles and small deployments' exports; a rollup reads by day).
    public func all(limit: Int) async throws -> [AnalyticsEvent] {
        try await self.sql.raw(
            "SELECT * FROM analytics_events ORDER BY occurred_at, user_id, event_key LIMIT \(bind: limit)"
        ).all().map(Self.event(from:))
    }

    /// The events waiting to be forwarded, oldest first.
    public func pendingForward(limit: Int) async throws -> [AnalyticsEvent] {
        try await self.sql.raw(
            "SELECT * FROM analytics_events WHERE forward_pending = 1 ORDER BY received_at, user_id, event_key LIMIT \(bind: limit)"
        ).all().map(Self.event(from:))
    }

    /// Marks these events forwarded.
    public func forwarded(_ keys: [EventKey]) async throws {
        guard !keys.isEmpty else { return }
        let matches = keys.map { key -> SQLQueryString in
            "(user_id = \(bind: key.user.rawValue) AND event_key = \(bind: key.key))"
        }
        try await self.sql.raw(
            "UPDATE analytics_events SET forward_pending = NULL WHERE \(matches.joined(separator: " OR "))"
        ).run()
    }

    static func event(from row: any SQLRow) throws -> AnalyticsEvent {
        AnalyticsEvent(
            userID: User.ID(try row.decode(column: "user_id", as: String.self)),
            key: try row.decode(column: "event_key", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            source: AnalyticsEvent.Source(rawValue: try row.decode(column: "source", as: String.self)) ?? .app,
            occurredAt: try row.decode(column: "occurred_at", as: Date.self),
            localDate: try Transaction.date(row, "local_date"),
            properties: try JSONDecoder().decode(
                [String: EventValue].self,
                from: Data(try row.decode(column: "properties", as: String.self).utf8)
            ),
            receivedAt: try row.decode(column: "received_at", as: Date.self)
        )
    }
}

/// An event's identity: its user and key.
public struct EventKey: Hashable, Sendable {
    public var user: User.ID
    public var key: String

    public init(user: User.ID, key: String) {
        self.user = user
        self.key = key
    }
}
