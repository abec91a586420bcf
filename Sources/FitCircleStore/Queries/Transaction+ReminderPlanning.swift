public import FitCircleCore
public import Foundation
import SQLKit

/// What the daily planner needs of a user, all on the user's row: the times of their preferences (the
/// defaults when never saved; the reminder time only when they chose one) and their habitual time, once
/// learned.
public struct ReminderSubject: Equatable, Sendable {
    public var user: User.ID
    public var chosenReminderTime: LocalTime?
    public var quietStart: LocalTime
    public var quietEnd: LocalTime
    public var habit: LocalTime?
}

extension Transaction {
    /// The queries of reminder planning, zone by zone.
    public var reminders: ReminderQueries { ReminderQueries(tx: self) }
}

public struct ReminderQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// One page of a zone's active users in id order, with when to reach them: one scan of `users`.
    public func subjects(inTimeZone zone: String, after: User.ID?, limit: Int) async throws -> [ReminderSubject] {
        // A user's times and id come as one text, `reminder|quietStart|quietEnd|habit|id` (a time empty
        // where never set): each column costs a decode through the driver's generic path, which took a
        // quarter of planning when they came one by one (issue 44).
        try await self.sql.raw(
            """
            SELECT COALESCE(reminder_time, '') || '|' || COALESCE(quiet_start, '') || '|' || COALESCE(quiet_end, '')
                || '|' || COALESCE(send_habit, '') || '|' || id AS plan
            FROM users
            WHERE time_zone = \(bind: zone) AND disabled_at IS NULL AND id > \(bind: after?.rawValue ?? "")
            ORDER BY id LIMIT \(bind: limit)
            """
        ).all().map { row in Self.subject(packed: try row.decode(column: "plan", as: String.self)) }
    }

    /// A subject from `reminder|quietStart|quietEnd|habit|id`: the first four fields are times (written by the
    /// server as `HH:MM`), the rest is the id. Never nil: a page that came back short would end the zone's
    /// planning early.
    private static func subject(packed: String) -> ReminderSubject {
        let bytes = packed.utf8
        var times: [LocalTime?] = []
        times.reserveCapacity(4)
        var start = bytes.startIndex
        var index = start
        while times.count < 4, index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "|") {
                times.append(LocalTime(utf8: bytes[start..<index]))
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        while times.count < 4 { times.append(nil) }
        return Self.subject(user: User.ID(String(decoding: bytes[start...], as: UTF8.self)), times: times)
    }

    /// One user's zone and when to reach them, unless the account is gone or disabled.
    public func subject(of user: User.ID) async throws -> (zone: String, subject: ReminderSubject)? {
        guard
            let row = try await self.sql.raw(
                "SELECT id, time_zone, reminder_time, quiet_start, quiet_end, send_habit FROM users WHERE id = \(bind: user.rawValue) AND disabled_at IS NULL"
            ).first()
        else { return nil }
        return (try row.decode(column: "time_zone", as: String.self), try Self.subject(from: row))
    }

    /// A subject from a row of `users` (the preferences' defaults for times never saved).
    private static func subject(from row: any SQLRow) throws -> ReminderSubject {
        func time(_ column: String) throws -> LocalTime? {
            try row.decode(column: column, as: String?.self).flatMap(LocalTime.init)
        }
        return Self.subject(
            user: User.ID(try row.decode(column: "id", as: String.self)),
            times: [try time("reminder_time"), try time("quiet_start"), try time("quiet_end"), try time("send_habit")]
        )
    }

    /// A subject from its times: the chosen reminder time, quiet hours' start and end, the habitual time.
    private static func subject(user: User.ID, times: [LocalTime?]) -> ReminderSubject {
        let defaults = NotificationPreferences.defaults
        return ReminderSubject(
            user: user,
            chosenReminderTime: times[0],
            quietStart: times[1] ?? defaults.quietStart,
            quietEnd: times[2] ?? defaults.quietEnd,
            habit: times[3]
        )
    }

    /// Moves the user's plan stamp on to `stamp` (or one past the stored one, so it always grows) and
    /// answers it: scheduled triggers planned before it pass the user over.
    public func advancePlan(of user: User.ID, to stamp: Int64) async throws -> Int64 {
        let stored =
            try await self.sql.raw("SELECT reminder_plan FROM users WHERE id = \(bind: user.rawValue)").first()
            .flatMap { try $0.decode(column: "reminder_plan", as: Int64?.self) } ?? 0
        let next = max(stamp, stored + 1)
        try await self.sql.raw("UPDATE users SET reminder_plan = \(bind: next) WHERE id = \(bind: user.rawValue)").run()
        return next
    }

    /// The plan stamp (nil: never planned alone) and the zone of each of `users` whose account is there.
    public func plans(of users: [User.ID]) async throws -> [User.ID: (stamp: Int64?, zone: String)] {
        var plans: [User.ID: (stamp: Int64?, zone: String)] = [:]
        for start in stride(from: 0, to: users.count, by: 1_000) {
            let ids = users[start..<min(start + 1_000, users.count)].map { $0.rawValue as any Encodable & Sendable }
            let rows = try await self.sql.raw(
                "SELECT id, reminder_plan, time_zone FROM users WHERE id IN (\(binds: ids))"
            ).all()
            for row in rows {
                plans[User.ID(try row.decode(column: "id", as: String.self))] = (
                    try row.decode(column: "reminder_plan", as: Int64?.self),
                    try row.decode(column: "time_zone", as: String.self)
                )
            }
        }
        return plans
    }

    /// The latest `limit` instants (oldest first) of the given kinds for each of `users`, in one statement.
    public func recentInstants(of users: [User.ID], kinds: [ActivityKind], limit: Int) async throws -> [User.ID: [(
        occurredAt: Date, timeZone: String
    )]] {
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
            found[user, default: []].append(
                (
                    try row.decode(column: "occurred_at", as: Date.self),
                    try row.decode(column: "time_zone", as: String.self)
                )
            )
        }
        return found
    }

    /// Stores each user's habitual time (nil: not known yet).
    public func saveSendHabits(_ habits: [User.ID: LocalTime?]) async throws {
        for (user, habit) in habits.sorted(by: { $0.key < $1.key }) {
            try await self.sql.raw(
                "UPDATE users SET send_habit = \(bind: habit?.description) WHERE id = \(bind: user.rawValue)"
            ).run()
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
