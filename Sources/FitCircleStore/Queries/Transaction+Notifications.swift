public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of notifications, the inbox and preferences.
    public var notifications: NotificationQueries { NotificationQueries(tx: self) }
}

public struct NotificationQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// The user's notification preferences; nil for an account created before they were stored at sign-up.
    public func preferences(of user: User.ID) async throws -> NotificationPreferences? {
        try await self.sql.raw(
            "SELECT preferences FROM notification_preferences WHERE user_id = \(bind: user.rawValue)"
        ).first().map {
            try JSONDecoder().decode(
                NotificationPreferences.self,
                from: Data(try $0.decode(column: "preferences", as: String.self).utf8)
            )
        }
    }

    /// The preferences of those of `users` who saved any (the others have the defaults).
    public func preferences(of users: some Collection<User.ID>) async throws -> [User.ID:
        NotificationPreferences]
    {
        guard !users.isEmpty else { return [:] }
        var found: [User.ID: NotificationPreferences] = [:]
        for row in try await self.sql.raw(
            "SELECT user_id, preferences FROM notification_preferences WHERE user_id IN (\(SQLList(users.map { SQLBind($0.rawValue) })))"
        ).all() {
            found[User.ID(try row.decode(column: "user_id", as: String.self))] = try JSONDecoder().decode(
                NotificationPreferences.self,
                from: Data(try row.decode(column: "preferences", as: String.self).utf8)
            )
        }
        return found
    }

    public func save(_ preferences: NotificationPreferences, of user: User.ID, at now: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO notification_preferences (user_id, preferences, updated_at)
            VALUES (\(bind: user.rawValue), \(bind: try Transaction.json(preferences)), \(bind: now))
            ON CONFLICT (user_id) DO UPDATE SET preferences = excluded.preferences, updated_at = excluded.updated_at
            """
        ).run()
        try await self.sql.raw(
            """
            UPDATE users SET reminder_time = \(bind: preferences.reminderTimeChosen ? preferences.reminderTime.description : nil), quiet_start = \(bind: preferences.quietStart.description),
                quiet_end = \(bind: preferences.quietEnd.description)
            WHERE id = \(bind: user.rawValue)
            """
        ).run()
    }
}

extension NotificationQueries {
    /// Registers a device for the user; a token seen before (same platform) moves to this user, active again.
    public func register(_ device: PushDevice, of user: User.ID) async throws -> PushDevice {
        let row = try await self.sql.raw(
            """
            INSERT INTO push_devices (id, user_id, platform, token, environment, active, registered_at)
            VALUES (\(bind: device.id.rawValue), \(bind: user.rawValue), \(bind: device.platform.rawValue), \(bind: device.token),
                \(bind: device.environment.rawValue), TRUE, \(bind: device.registeredAt))
            ON CONFLICT (platform, token) DO UPDATE SET user_id = excluded.user_id, environment = excluded.environment, active = TRUE,
                registered_at = excluded.registered_at, suspect_count = 0, deactivated_reason = NULL
            RETURNING *
            """
        ).first()
        // `RETURNING *` of an insert or update answers its row.
        guard let row else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "the device's upsert returned no row")
            )
        }
        return try Self.device(from: row)
    }

    /// Keeps the user's `newest` devices registered last active and stops the others (a person's
    /// reinstalls, or a script's thousands of tokens, never make a push fan out without bound).
    public func keepNewestDevices(_ newest: Int, of user: User.ID) async throws {
        try await self.sql.raw(
            """
            UPDATE push_devices SET active = FALSE, deactivated_reason = 'replaced by a newer device'
            WHERE user_id = \(bind: user.rawValue) AND active AND id NOT IN (
                SELECT id FROM push_devices WHERE user_id = \(bind: user.rawValue) AND active
                ORDER BY registered_at DESC, id DESC LIMIT \(bind: newest)
            )
            """
        ).run()
    }

    /// Deactivates one of the user's devices; false when it is not theirs.
    public func deactivateDevice(_ id: PushDevice.ID, of user: User.ID) async throws -> Bool {
        try await self.sql.raw(
            "UPDATE push_devices SET active = FALSE WHERE id = \(bind: id.rawValue) AND user_id = \(bind: user.rawValue) RETURNING id"
        ).all().count == 1
    }

    public func activeDevices(of user: User.ID) async throws -> [PushDevice] {
        try await self.sql.raw(
            "SELECT * FROM push_devices WHERE user_id = \(bind: user.rawValue) AND active ORDER BY registered_at, id"
        ).all()
            .map(Self.device(from:))
    }

    /// ` AND` the notification goes by `channel` (`column`, `channels`, is a JSON array of the channels' names).
    private static func sent(by channel: NotificationChannel, column: String) -> SQLQueryString {
        " AND \(unsafeRaw: column) LIKE \(bind: "%\"\(channel.rawValue)\"%")"
    }

    /// Sent notifications the user has not read: the app icon's badge, or of one channel (the inbox's, `inApp`).
    public func unreadCount(of user: User.ID, channel: NotificationChannel? = nil) async throws -> Int {
        var sql = SQLQueryString(
            "SELECT COUNT(*) AS unread FROM notifications WHERE user_id = \(bind: user.rawValue) AND status = 'sent' AND read_at IS NULL"
        )
        if let channel { sql.appendInterpolation(Self.sent(by: channel, column: "channels")) }
        return try await self.sql.raw(sql).first()?.decode(column: "unread", as: Int.self) ?? 0
    }

    /// Keeps a decision; false when one with the same dedupe key exists for the user (it is never made twice).
    public func insert(_ record: NotificationRecord, of user: User.ID) async throws -> Bool {
        try await self.sql.raw(
            """
            INSERT INTO notifications (id, user_id, type, dedupe_key, critical, title, body, deep_link, data, status, reason, channels,
                local_date, decided_at, deliver_at, trail, actor_id)
            VALUES (\(bind: record.id.rawValue), \(bind: user.rawValue), \(bind: record.type), \(bind: record.dedupeKey), \(bind: record.critical),
                \(bind: record.title), \(bind: record.body), \(bind: record.deepLink), \(bind: try Transaction.json(record.data)),
                \(bind: record.status.rawValue), \(bind: record.reason), \(bind: try Transaction.json(record.channels)), \(bind: record.date.iso),
                \(bind: record.decidedAt), \(bind: record.deliverAt), \(bind: try Transaction.json(record.trail)),
                \(bind: NotificationNaming.actor(in: record.data)?.rawValue))
            ON CONFLICT (user_id, dedupe_key) DO NOTHING RETURNING id
            """
        ).all().count == 1
    }

    /// Records a new decision about a deferred notification.
    public func redecide(_ record: NotificationRecord, of user: User.ID) async throws {
        try await self.sql.raw(
            """
            UPDATE notifications SET status = \(bind: record.status.rawValue), reason = \(bind: record.reason),
                channels = \(bind: try Transaction.json(record.channels)), decided_at = \(bind: record.decidedAt), deliver_at = \(bind: record.deliverAt),
                local_date = \(bind: record.date.iso), trail = \(bind: try Transaction.json(record.trail))
            WHERE id = \(bind: record.id.rawValue) AND user_id = \(bind: user.rawValue)
            """
        ).run()
    }

    public func notification(_ id: NotificationRecord.ID, of user: User.ID) async throws -> NotificationRecord? {
        try await self.sql.raw(
            "SELECT * FROM notifications WHERE id = \(bind: id.rawValue) AND user_id = \(bind: user.rawValue)"
        ).first()
            .map(Self.notification(from:))
    }

    public func notification(withDedupeKey key: String, of user: User.ID) async throws -> NotificationRecord? {
        try await self.sql.raw(
            "SELECT * FROM notifications WHERE dedupe_key = \(bind: key) AND user_id = \(bind: user.rawValue)"
        ).first()
            .map(Self.notification(from:))
    }

    /// The user's decisions, newest first, a page at a time: optionally of one type, status or channel, and
    /// after `last` (the last of the page before; the order is the instant decided, then the id).
    public func list(
        of user: User.ID,
        type: String? = nil,
        status: NotificationRecord.Status? = nil,
        channel: NotificationChannel? = nil,
        after last: NotificationRecord.ID? = nil,
        limit: Int
    ) async throws -> [NotificationRecord] {
        var sql = SQLQueryString("SELECT * FROM notifications n WHERE n.user_id = \(bind: user.rawValue)")
        if let type {
            sql.appendInterpolation(unsafeRaw: " AND n.type = ")
            sql.appendInterpolation(bind: type)
        }
        if let status {
            sql.appendInterpolation(unsafeRaw: " AND n.status = ")
            sql.appendInterpolation(bind: status.rawValue)
        }
        if let channel { sql.appendInterpolation(Self.sent(by: channel, column: "n.channels")) }
        if let last {
            sql.appendInterpolation(
                unsafeRaw: " AND (n.decided_at, n.id) < (SELECT l.decided_at, l.id FROM notifications l WHERE l.id = "
            )
            sql.appendInterpolation(bind: last.rawValue)
            sql.appendInterpolation(unsafeRaw: " AND l.user_id = ")
            sql.appendInterpolation(bind: user.rawValue)
            sql.appendInterpolation(unsafeRaw: ")")
        }
        sql.appendInterpolation(unsafeRaw: " ORDER BY n.decided_at DESC, n.id DESC LIMIT ")
        sql.appendInterpolation(bind: limit)
        return try await self.sql.raw(sql).all().map(Self.notification(from:))
    }

    /// The notifications sent to the user that were decided at or after `since`, oldest first.
    public func notificationsSent(to user: User.ID, since: Date, limit: Int) async throws -> [NotificationRecord] {
        try await self.sql.raw(
            """
            SELECT * FROM notifications WHERE user_id = \(bind: user.rawValue) AND status = 'sent' AND decided_at >= \(bind: since)
            ORDER BY decided_at, id LIMIT \(bind: limit)
            """
        ).all().map(Self.notification(from:))
    }

    /// Sent notifications since `since`: of every non-critical type, and of `type`.
    public func sentNotifications(of user: User.ID, since: Date) async throws -> [(
        type: String, critical: Bool, decidedAt: Date
    )] {
        try await self.sql.raw(
            """
            SELECT type, critical, decided_at FROM notifications
            WHERE user_id = \(bind: user.rawValue) AND status = 'sent' AND decided_at >= \(bind: since)
            """
        ).all().map {
            (
                try $0.decode(column: "type", as: String.self), try $0.decode(column: "critical", as: Bool.self),
                try $0.decode(column: "decided_at", as: Date.self)
            )
        }
    }

    /// Sets one of the read, opened or action instants once; false when the notification is not the user's.
    public func mark(_ id: NotificationRecord.ID, of user: User.ID, _ mark: NotificationMark, at now: Date)
        async throws -> Bool
    {
        let column = "\(mark.rawValue)_at"  // read_at, opened_at, action_at
        return try await self.sql.raw(
            """
            UPDATE notifications SET \(unsafeRaw: column) = COALESCE(\(unsafeRaw: column), \(bind: now))
            WHERE id = \(bind: id.rawValue) AND user_id = \(bind: user.rawValue) RETURNING id
            """
        ).all().count == 1
    }

    /// The latest instant the user recorded anything (the policy's "active in the app").
    public func lastActivity(of user: User.ID) async throws -> Date? {
        try await self.sql.raw(
            "SELECT received_at FROM activity_events WHERE user_id = \(bind: user.rawValue) ORDER BY received_at DESC LIMIT 1"
        ).first()?.decode(column: "received_at", as: Date.self)
    }

    private static func device(from row: any SQLRow) throws -> PushDevice {
        PushDevice(
            id: PushDevice.ID(try row.decode(column: "id", as: String.self)),
            platform: PushDevice.Platform(rawValue: try row.decode(column: "platform", as: String.self)) ?? .ios,
            token: try row.decode(column: "token", as: String.self),
            environment: PushDevice.Environment(rawValue: try row.decode(column: "environment", as: String.self))
                ?? .production,
            active: try row.decode(column: "active", as: Bool.self),
            registeredAt: try row.decode(column: "registered_at", as: Date.self)
        )
    }

    static func notification(from row: any SQLRow) throws -> NotificationRecord {
        let decoder = JSONDecoder()
        return NotificationRecord(
            id: NotificationRecord.ID(try row.decode(column: "id", as: String.self)),
            type: try row.decode(column: "type", as: String.self),
            dedupeKey: try row.decode(column: "dedupe_key", as: String.self),
            critical: try row.decode(column: "critical", as: Bool.self),
            title: try row.decode(column: "title", as: String.self),
            body: try row.decode(column: "body", as: String.self),
            deepLink: try row.decode(column: "deep_link", as: String?.self),
            data: try decoder.decode(
                [String: String].self,
                from: Data(try row.decode(column: "data", as: String.self).utf8)
            ),
            status: NotificationRecord.Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .dropped,
            reason: try row.decode(column: "reason", as: String?.self),
            channels: try decoder.decode(
                [NotificationChannel].self,
                from: Data(try row.decode(column: "channels", as: String.self).utf8)
            ),
            date: try Transaction.date(row, "local_date"),
            decidedAt: try row.decode(column: "decided_at", as: Date.self),
            deliverAt: try row.decode(column: "deliver_at", as: Date?.self),
            readAt: try row.decode(column: "read_at", as: Date?.self),
            openedAt: try row.decode(column: "opened_at", as: Date?.self),
            actionAt: try row.decode(column: "action_at", as: Date?.self),
            trail: try decoder.decode([String].self, from: Data(try row.decode(column: "trail", as: String.self).utf8))
        )
    }
}

extension NotificationQueries {
}
