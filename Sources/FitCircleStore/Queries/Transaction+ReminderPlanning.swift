public import FitCircleCore
public import Foundation
import SQLKit

/// What the daily planner needs of a user: the times of their preferences (the defaults when they never
/// changed them).
public struct ReminderSubject: Equatable, Sendable {
    public var user: User.ID
    public var reminderTime: LocalTime
    public var quietStart: LocalTime
    public var quietEnd: LocalTime
}

extension Transaction {
    /// One page of a zone's active users in id order, with their reminder time and quiet hours: one scan,
    /// no per-user read.
    public func reminderSubjects(inTimeZone zone: String, after: User.ID?, limit: Int) async throws -> [ReminderSubject] {
        let defaults = NotificationPreferences.defaults
        return try await self.sql.raw(
            """
            SELECT u.id, p.reminder_time, p.quiet_start, p.quiet_end FROM users u
            LEFT JOIN notification_preferences p ON p.user_id = u.id
            WHERE u.time_zone = \(bind: zone) AND u.disabled_at IS NULL AND u.id > \(bind: after?.rawValue ?? "")
            ORDER BY u.id LIMIT \(bind: limit)
            """
        ).all().map { row in
            func time(_ column: String) throws -> LocalTime? { try row.decode(column: column, as: String?.self).flatMap(LocalTime.init) }
            return ReminderSubject(
                user: User.ID(try row.decode(column: "id", as: String.self)),
                reminderTime: try time("reminder_time") ?? defaults.reminderTime,
                quietStart: try time("quiet_start") ?? defaults.quietStart,
                quietEnd: try time("quiet_end") ?? defaults.quietEnd)
        }
    }

    /// The latest `limit` instants (oldest first) of the given kinds for each user of the zone with an id in
    /// `after…through`: the page `reminderSubjects` answered, read in one statement.
    public func recentInstants(
        ofUsersInTimeZone zone: String, after: User.ID?, through last: User.ID, kinds: [ActivityKind], limit: Int
    ) async throws -> [User.ID: [(occurredAt: Date, timeZone: String)]] {
        let kinds = kinds.map { $0.rawValue as any Encodable & Sendable }
        var found: [User.ID: [(occurredAt: Date, timeZone: String)]] = [:]
        let rows = try await self.sql.raw(
            """
            SELECT user_id, occurred_at, time_zone FROM (
                SELECT e.user_id, e.occurred_at, e.time_zone,
                    ROW_NUMBER() OVER (PARTITION BY e.user_id ORDER BY e.occurred_at DESC) AS n
                FROM activity_events e JOIN users u ON u.id = e.user_id
                WHERE u.time_zone = \(bind: zone) AND u.id > \(bind: after?.rawValue ?? "") AND u.id <= \(bind: last.rawValue)
                    AND e.kind IN (\(binds: kinds)) AND e.deleted_at IS NULL
            ) AS recent WHERE n <= \(bind: limit) ORDER BY user_id, occurred_at
            """
        ).all()
        for row in rows {
            let user = User.ID(try row.decode(column: "user_id", as: String.self))
            found[user, default: []].append((try row.decode(column: "occurred_at", as: Date.self), try row.decode(column: "time_zone", as: String.self)))
        }
        return found
    }
}
