public import FitCircleCore
public import Foundation
import SQLKit

/// What the daily planner needs of a user, all on the user's row: the times of their preferences (the
/// defaults when never saved) and their habitual time, once learned.
public struct ReminderSubject: Equatable, Sendable {
    public var user: User.ID
    public var reminderTime: LocalTime
    public var quietStart: LocalTime
    public var quietEnd: LocalTime
    public var habit: LocalTime?
}

extension Transaction {
    /// One page of a zone's active users in id order, with when to reach them: one scan of `users`.
    public func reminderSubjects(inTimeZone zone: String, after: User.ID?, limit: Int) async throws -> [ReminderSubject] {
        let defaults = NotificationPreferences.defaults
        return try await self.sql.raw(
            """
            SELECT id, reminder_time, quiet_start, quiet_end, send_habit FROM users
            WHERE time_zone = \(bind: zone) AND disabled_at IS NULL AND id > \(bind: after?.rawValue ?? "")
            ORDER BY id LIMIT \(bind: limit)
            """
        ).all().map { row in
            func time(_ column: String) throws -> LocalTime? { try row.decode(column: column, as: String?.self).flatMap(LocalTime.init) }
            return ReminderSubject(
                user: User.ID(try row.decode(column: "id", as: String.self)),
                reminderTime: try time("reminder_time") ?? defaults.reminderTime,
                quietStart: try time("quiet_start") ?? defaults.quietStart,
                quietEnd: try time("quiet_end") ?? defaults.quietEnd,
                habit: try time("send_habit"))
        }
    }

    /// The latest `limit` instants (oldest first) of the given kinds for each of `users`, in one statement.
    public func recentInstants(of users: [User.ID], kinds: [ActivityKind], limit: Int) async throws -> [User.ID: [(occurredAt: Date, timeZone: String)]] {
        guard !users.isEmpty else { return [:] }
        let ids = users.map { $0.rawValue as any Encodable & Sendable }
        let kinds = kinds.map { $0.rawValue as any Encodable & Sendable }
        var found: [User.ID: [(occurredAt: Date, timeZone: String)]] = [:]
        let rows = try await self.sql.raw(
            """
            SELECT user_id, occurred_at, time_zone FROM (
                SELECT user_id, occurred_at, time_zone, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY occurred_at DESC) AS n
                FROM activity_events WHERE user_id IN (\(binds: ids)) AND kind IN (\(binds: kinds)) AND deleted_at IS NULL
            ) AS recent WHERE n <= \(bind: limit) ORDER BY user_id, occurred_at
            """
        ).all()
        for row in rows {
            let user = User.ID(try row.decode(column: "user_id", as: String.self))
            found[user, default: []].append((try row.decode(column: "occurred_at", as: Date.self), try row.decode(column: "time_zone", as: String.self)))
        }
        return found
    }

    /// Stores each user's habitual time (nil: not known yet).
    public func saveSendHabits(_ habits: [User.ID: LocalTime?]) async throws {
        for (user, habit) in habits.sorted(by: { $0.key < $1.key }) {
            try await self.sql.raw("UPDATE users SET send_habit = \(bind: habit?.description) WHERE id = \(bind: user.rawValue)").run()
        }
    }

    /// Every user's stored habitual time, for replay.
    public func sendHabits() async throws -> [User.ID: LocalTime] {
        var habits: [User.ID: LocalTime] = [:]
        for row in try await self.sql.raw("SELECT id, send_habit FROM users WHERE send_habit IS NOT NULL").all() {
            if let time = try row.decode(column: "send_habit", as: String?.self).flatMap(LocalTime.init) {
                habits[User.ID(try row.decode(column: "id", as: String.self))] = time
            }
        }
        return habits
    }
}
