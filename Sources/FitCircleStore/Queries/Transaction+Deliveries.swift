public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of deliveries: attempts, devices kept honest and the email log.
    public var deliveries: DeliveryQueries { DeliveryQueries(tx: self) }
}

public struct DeliveryQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    public func insert(_ attempt: DeliveryAttemptRecord) async throws {
        try await self.sql.raw(
            """
            INSERT INTO delivery_attempts (id, notification_id, channel, target, provider, attempt, outcome, reason, status, latency_ms, attempted_at)
            VALUES (\(bind: attempt.id), \(bind: attempt.notification.rawValue), \(bind: attempt.channel.rawValue), \(bind: attempt.target),
                \(bind: attempt.provider), \(bind: attempt.attempt), \(bind: attempt.outcome), \(bind: attempt.reason), \(bind: attempt.status),
                \(bind: attempt.latencyMilliseconds), \(bind: attempt.attemptedAt))
            """
        ).run()
    }

    /// The notification's attempts, oldest first.
    public func deliveryAttempts(of notification: NotificationRecord.ID) async throws -> [DeliveryAttemptRecord] {
        try await self.deliveryAttempts(of: [notification])[notification] ?? []
    }

    /// The attempts of each of these notifications, oldest first (one query, for a page of history).
    public func deliveryAttempts(of notifications: [NotificationRecord.ID]) async throws -> [NotificationRecord.ID:
        [DeliveryAttemptRecord]]
    {
        guard !notifications.isEmpty else { return [:] }
        let ids = SQLList(notifications.map { SQLBind($0.rawValue) })
        let attempts = try await self.sql.raw(
            "SELECT * FROM delivery_attempts WHERE notification_id IN (\(ids)) ORDER BY attempted_at, attempt, id"
        ).all().map(Self.attempt(from:))
        return Dictionary(grouping: attempts, by: \.notification)
    }

    static func attempt(from row: any SQLRow) throws -> DeliveryAttemptRecord {
        DeliveryAttemptRecord(
            id: try row.decode(column: "id", as: String.self),
            notification: NotificationRecord.ID(try row.decode(column: "notification_id", as: String.self)),
            channel: NotificationChannel(rawValue: try row.decode(column: "channel", as: String.self)) ?? .push,
            target: try row.decode(column: "target", as: String.self),
            provider: try row.decode(column: "provider", as: String.self),
            attempt: try row.decode(column: "attempt", as: Int.self),
            outcome: try row.decode(column: "outcome", as: String.self),
            reason: try row.decode(column: "reason", as: String?.self),
            status: try row.decode(column: "status", as: Int?.self),
            latencyMilliseconds: try row.decode(column: "latency_ms", as: Int.self),
            attemptedAt: try row.decode(column: "attempted_at", as: Date.self)
        )
    }

    /// A delivery reached the device: it is in use, and no longer suspect.
    public func deviceReached(_ device: PushDevice.ID, at now: Date) async throws {
        try await self.sql.raw(
            "UPDATE push_devices SET last_used_at = \(bind: now), suspect_count = 0 WHERE id = \(bind: device.rawValue)"
        ).run()
    }

    /// The provider says the token is gone: the device gets nothing more.
    public func deactivateDevice(_ device: PushDevice.ID, reason: String) async throws {
        try await self.sql.raw(
            "UPDATE push_devices SET active = FALSE, deactivated_reason = \(bind: reason) WHERE id = \(bind: device.rawValue)"
        ).run()
    }

    /// The provider doubted the token; answers how many times in a row it has.
    public func suspectDevice(_ device: PushDevice.ID) async throws -> Int {
        try await self.sql.raw(
            "UPDATE push_devices SET suspect_count = suspect_count + 1 WHERE id = \(bind: device.rawValue) RETURNING suspect_count"
        ).first()?.decode(column: "suspect_count", as: Int.self) ?? 0
    }

    /// Deactivates the user's devices that no delivery reached since `cutoff` (nor were registered since);
    /// answers how many.
    public func expireDevices(of user: User.ID, unusedSince cutoff: Date) async throws -> Int {
        try await self.sql.raw(
            """
            UPDATE push_devices SET active = FALSE, deactivated_reason = 'unused'
            WHERE user_id = \(bind: user.rawValue) AND active AND COALESCE(last_used_at, registered_at) < \(bind: cutoff) RETURNING id
            """
        ).all().count
    }
}
