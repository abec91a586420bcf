public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of outbound webhooks (`webhook_endpoints`, `webhook_deliveries`).
    public var webhooks: WebhookQueries { WebhookQueries(tx: self) }
}

public struct WebhookQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    public func insert(_ endpoint: WebhookEndpoint) async throws {
        try await self.sql.raw(
            """
            INSERT INTO webhook_endpoints (id, url, events, description, secret, created_at)
            VALUES (\(bind: endpoint.id.rawValue), \(bind: endpoint.url), \(bind: try Transaction.json(endpoint.events)), \(bind: endpoint.description),
                \(bind: endpoint.secret), \(bind: endpoint.createdAt))
            """
        ).run()
    }

    public func endpoints() async throws -> [WebhookEndpoint] {
        try await self.sql.raw("SELECT * FROM webhook_endpoints ORDER BY created_at, id").all().map(
            Self.endpoint(from:)
        )
    }

    public func endpoint(_ id: WebhookEndpoint.ID) async throws -> WebhookEndpoint? {
        try await self.sql.raw("SELECT * FROM webhook_endpoints WHERE id = \(bind: id.rawValue)").first().map(
            Self.endpoint(from:)
        )
    }

    /// Removes the endpoint with its delivery log. - Returns: whether there was one.
    public func delete(_ id: WebhookEndpoint.ID) async throws -> Bool {
        try await self.sql.raw("DELETE FROM webhook_endpoints WHERE id = \(bind: id.rawValue) RETURNING id").first()
            != nil
    }

    /// Queues the deliveries an event makes; one the log already has (the same event again) is skipped.
    /// - Returns: the ones queued.
    public func queue(_ deliveries: [(delivery: WebhookDelivery, key: String)]) async throws -> [WebhookDelivery.ID] {
        var queued: [WebhookDelivery.ID] = []
        for (delivery, key) in deliveries {
            let row = try await self.sql.raw(
                """
                INSERT INTO webhook_deliveries (id, endpoint_id, event, event_key, user_id, payload, status, attempts, created_at)
                VALUES (\(bind: delivery.id.rawValue), \(bind: delivery.endpoint.rawValue), \(bind: delivery.event), \(bind: key),
                    \(bind: delivery.user.rawValue), \(bind: delivery.payload), \(bind: delivery.status.rawValue), 0, \(bind: delivery.createdAt))
                ON CONFLICT (endpoint_id, user_id, event_key) DO NOTHING
                RETURNING id
                """
            ).first()
            if row != nil { queued.append(delivery.id) }
        }
        return queued
    }

    public func delivery(_ id: WebhookDelivery.ID) async throws -> WebhookDelivery? {
        try await self.sql.raw("SELECT * FROM webhook_deliveries WHERE id = \(bind: id.rawValue)").first().map(
            Self.delivery(from:)
        )
    }

    /// The endpoint's log, newest first, optionally of one status only.
    /// A page of an endpoint's deliveries, newest first, after the delivery `last` (the last of the page before).
    public func deliveries(
        of endpoint: WebhookEndpoint.ID,
        status: WebhookDelivery.Status?,
        after last: WebhookDelivery.ID?,
        limit: Int
    ) async throws -> [WebhookDelivery] {
        let filter: SQLQueryString = status.map { "AND status = \(bind: $0.rawValue)" } ?? ""
        let after: SQLQueryString =
            last.map {
                "AND (created_at, id) < (SELECT l.created_at, l.id FROM webhook_deliveries l WHERE l.id = \(bind: $0.rawValue))"
            } ?? ""
        return try await self.sql.raw(
            """
            SELECT * FROM webhook_deliveries WHERE endpoint_id = \(bind: endpoint.rawValue) \(filter) \(after)
            ORDER BY created_at DESC, id DESC LIMIT \(bind: limit)
            """
        ).all().map(Self.delivery(from:))
    }

    /// Records an attempt's result.
    public func record(
        _ id: WebhookDelivery.ID,
        status: WebhookDelivery.Status,
        httpStatus: Int?,
        error: String?,
        at now: Date
    ) async throws {
        try await self.sql.raw(
            """
            UPDATE webhook_deliveries SET status = \(bind: status.rawValue), attempts = attempts + 1, last_status = \(bind: httpStatus),
                last_error = \(bind: error), delivered_at = \(bind: status == .delivered ? now : nil as Date?)
            WHERE id = \(bind: id.rawValue)
            """
        ).run()
    }

    /// Puts a delivery back in the queue (a replay). - Returns: whether it existed.
    public func requeue(_ id: WebhookDelivery.ID) async throws -> Bool {
        try await self.sql.raw(
            "UPDATE webhook_deliveries SET status = 'pending', delivered_at = NULL WHERE id = \(bind: id.rawValue) RETURNING id"
        ).first() != nil
    }

    private static func endpoint(from row: any SQLRow) throws -> WebhookEndpoint {
        WebhookEndpoint(
            id: WebhookEndpoint.ID(try row.decode(column: "id", as: String.self)),
            url: try row.decode(column: "url", as: String.self),
            events: try JSONDecoder().decode(
                [String].self,
                from: Data(try row.decode(column: "events", as: String.self).utf8)
            ),
            description: try row.decode(column: "description", as: String.self),
            secret: try row.decode(column: "secret", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Date.self)
        )
    }

    private static func delivery(from row: any SQLRow) throws -> WebhookDelivery {
        WebhookDelivery(
            id: WebhookDelivery.ID(try row.decode(column: "id", as: String.self)),
            endpoint: WebhookEndpoint.ID(try row.decode(column: "endpoint_id", as: String.self)),
            event: try row.decode(column: "event", as: String.self),
            user: User.ID(try row.decode(column: "user_id", as: String.self)),
            payload: try row.decode(column: "payload", as: String.self),
            status: WebhookDelivery.Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .failed,
            attempts: try row.decode(column: "attempts", as: Int.self),
            lastStatus: try row.decode(column: "last_status", as: Int?.self),
            lastError: try row.decode(column: "last_error", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            deliveredAt: try row.decode(column: "delivered_at", as: Date?.self)
        )
    }
}
