public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of the activity ledger and the daily tracking derived from it.
    public var activities: ActivityQueries { ActivityQueries(tx: self) }
}

public struct ActivityQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// Stores each event unless its user already sent one with the same client event id (in the store or
    /// earlier in `events`).
    /// - Returns: the ids of the events that were stored.
    public func insert(_ events: [ActivityEvent]) async throws -> Set<ActivityEvent.ID> {
        var stored: Set<ActivityEvent.ID> = []
        // A few hundred rows per statement keeps the bind count far below both databases' limits.
        for start in stride(from: 0, to: events.count, by: 250) {
            let rows = try events[start..<min(start + 250, events.count)].map { event -> SQLQueryString in
                let (workoutType, duration, distance) = Self.workoutColumns(of: event)
                return """
                    (\(bind: event.id.rawValue), \(bind: event.userID.rawValue), \(bind: event.clientEventID),
                    \(bind: event.kind.rawValue), \(bind: event.occurredAt), \(bind: event.timeZone), \(bind: event.localDate.iso),
                    \(bind: event.source.rawValue), \(bind: event.receivedAt), \(bind: try Transaction.json(event.payload)),
                    \(bind: try Transaction.json(event.flags)), \(bind: workoutType), \(bind: duration), \(bind: distance),
                    \(bind: event.visibility.rawValue), \(bind: event.receivedAt))
                    """
            }
            let query: SQLQueryString = """
                INSERT INTO activity_events (id, user_id, client_event_id, kind, occurred_at, time_zone, local_date, source,
                    received_at, payload, flags, workout_type, duration_seconds, distance_meters, visibility, changed_at)
                VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (user_id, client_event_id) DO NOTHING
                RETURNING id
                """
            for row in try await self.sql.raw(query).all() {
                stored.insert(ActivityEvent.ID(try row.decode(column: "id", as: String.self)))
            }
        }
        try await self.tx.feed.indexOwnWorkouts(events, stored: stored)
        return stored
    }

    /// Replaces a live event's content by an edited version of it (same id, client id and kind), at `now`.
    public func replace(_ event: ActivityEvent, at now: Date) async throws {
        let (workoutType, duration, distance) = Self.workoutColumns(of: event)
        try await self.sql.raw(
            """
            UPDATE activity_events SET occurred_at = \(bind: event.occurredAt), time_zone = \(bind: event.timeZone),
                local_date = \(bind: event.localDate.iso), source = \(bind: event.source.rawValue), payload = \(bind: try Transaction.json(event.payload)),
                flags = \(bind: try Transaction.json(event.flags)), workout_type = \(bind: workoutType), duration_seconds = \(bind: duration),
                distance_meters = \(bind: distance), visibility = \(bind: event.visibility.rawValue), revision = \(bind: event.revision),
                modified_at = \(bind: event.modifiedAt), changed_at = \(bind: now)
            WHERE id = \(bind: event.id.rawValue) AND user_id = \(bind: event.userID.rawValue) AND deleted_at IS NULL
            """
        ).run()
        try await self.tx.feed.reindexFeeds(of: event)
    }

    /// A workout's type, duration and distance, kept in columns of their own for the feed and the boards.
    private static func workoutColumns(of event: ActivityEvent) -> (type: String?, duration: Double?, distance: Double?)
    {
        guard case .workout(let workout) = event.payload else { return (nil, nil, nil) }
        return (workout.type.rawValue, workout.durationSeconds, workout.distanceMeters)
    }

    /// The user's event with this client id, deleted or not.
    public func activity(of user: User.ID, clientEventID: String) async throws -> StoredActivity? {
        try await self.list(withClientIDs: [ClientEventKey(user: user, clientEventID: clientEventID)]).values
            .first
    }

    /// The events users sent with these client ids, deleted or not.
    public func list(withClientIDs keys: [ClientEventKey]) async throws -> [ClientEventKey: StoredActivity] {
        guard !keys.isEmpty else { return [:] }
        let matches = keys.map { key -> SQLQueryString in
            "(user_id = \(bind: key.user.rawValue) AND client_event_id = \(bind: key.clientEventID))"
        }
        let decoder = JSONDecoder()
        var found: [ClientEventKey: StoredActivity] = [:]
        for row in try await self.sql.raw("SELECT * FROM activity_events WHERE \(matches.joined(separator: " OR "))")
            .all()
        {
            let stored = try Transaction.activity(from: row, decoder: decoder)
            found[ClientEventKey(user: stored.event.userID, clientEventID: stored.event.clientEventID)] = stored
        }
        return found
    }

    /// One of the user's events by id, deleted or not.
    public func activity(of user: User.ID, id: ActivityEvent.ID) async throws -> StoredActivity? {
        try await self.sql.raw(
            "SELECT * FROM activity_events WHERE user_id = \(bind: user.rawValue) AND id = \(bind: id.rawValue)"
        ).first().map(Transaction.activity(from:))
    }

    /// The live (not deleted) events of each of these users' local days.
    public func list(on days: some Collection<UserDay>) async throws -> [UserDay: [ActivityEvent]] {
        guard !days.isEmpty else { return [:] }
        let matches = days.map { day -> SQLQueryString in
            "(user_id = \(bind: day.user.rawValue) AND local_date = \(bind: day.date.iso))"
        }
        let decoder = JSONDecoder()
        var found: [UserDay: [ActivityEvent]] = [:]
        let rows = try await self.sql.raw(
            "SELECT * FROM activity_events WHERE deleted_at IS NULL AND (\(matches.joined(separator: " OR ")))"
        ).all()
        for row in rows {
            let event = try Transaction.activity(from: row, decoder: decoder).event
            found[UserDay(user: event.userID, date: event.localDate), default: []].append(event)
        }
        return found
    }

    /// A page of a user's live events, newest first, optionally of one kind and within local dates.
    public func list(of user: User.ID, query: ActivityQuery) async throws -> [ActivityEvent] {
        var sql = SQLQueryString(
            "SELECT * FROM activity_events WHERE user_id = \(bind: user.rawValue) AND deleted_at IS NULL"
        )
        if let kind = query.kind {
            sql.appendInterpolation(unsafeRaw: " AND kind = ")
            sql.appendInterpolation(bind: kind.rawValue)
        }
        if let from = query.from {
            sql.appendInterpolation(unsafeRaw: " AND local_date >= ")
            sql.appendInterpolation(bind: from.iso)
        }
        if let to = query.to {
            sql.appendInterpolation(unsafeRaw: " AND local_date <= ")
            sql.appendInterpolation(bind: to.iso)
        }
        if let after = query.after {
            // Keyset pagination: strictly older than the last row of the previous page.
            let key = InstantKey(at: after.occurredAt, id: after.id.rawValue)
            sql += " AND \(self.tx.keyset("occurred_at", "id", after: key, descending: true))"
        }
        sql.appendInterpolation(unsafeRaw: " ORDER BY occurred_at DESC, id DESC LIMIT ")
        sql.appendInterpolation(bind: query.limit)
        let decoder = JSONDecoder()
        return try await self.sql.raw(sql).all().map { try Transaction.activity(from: $0, decoder: decoder).event }
    }

    /// A page of the user's events in the order they last changed (oldest change first), from `since` on
    /// and after `after`: deleted ones as tombstones when `tombstones`, else live ones only.
    public func changes(
        of user: User.ID,
        since: Date?,
        after: InstantKey?,
        tombstones: Bool,
        limit: Int
    ) async throws -> [ActivityChange] {
        var sql: SQLQueryString = "SELECT * FROM activity_events WHERE user_id = \(bind: user.rawValue)"
        if !tombstones { sql += " AND deleted_at IS NULL" }
        if let since { sql += " AND changed_at >= \(bind: since)" }
        if let after { sql += " AND \(self.tx.keyset("changed_at", "id", after: after, descending: false))" }
        sql += " ORDER BY changed_at, id LIMIT \(bind: limit)"
        let decoder = JSONDecoder()
        return try await self.sql.raw(sql).all().map { row in
            let stored = try Transaction.activity(from: row, decoder: decoder)
            return ActivityChange(
                changedAt: try row.decode(column: "changed_at", as: Date.self),
                stored: stored
            )
        }
    }

    /// Every event of these kinds a user recorded, deleted ones included (for replay).
    public func list(of user: User.ID, kinds: [ActivityKind]) async throws -> [StoredActivity] {
        guard !kinds.isEmpty else { return [] }
        let decoder = JSONDecoder()
        return try await self.sql.raw(
            """
            SELECT * FROM activity_events WHERE user_id = \(bind: user.rawValue) AND kind IN (\(SQLList(kinds.map { SQLBind($0.rawValue) })))
            ORDER BY id
            """
        ).all().map { try Transaction.activity(from: $0, decoder: decoder) }
    }

    /// Marks an event deleted; the row stays so a replayed client id is recognised.
    public func delete(_ id: ActivityEvent.ID, of user: User.ID, at now: Date) async throws {
        try await self.sql.raw(
            """
            UPDATE activity_events SET deleted_at = \(bind: now), changed_at = \(bind: now)
            WHERE id = \(bind: id.rawValue) AND user_id = \(bind: user.rawValue) AND deleted_at IS NULL
            """
        ).run()
        try await self.tx.changed(.activity(id))
    }

    /// Every user id that has events, for replay.
    public func usersWithActivities() async throws -> [User.ID] {
        try await self.sql.raw(
            "SELECT DISTINCT user_id FROM activity_events UNION SELECT DISTINCT user_id FROM daily_tracking"
        )
        .all().map { User.ID(try $0.decode(column: "user_id", as: String.self)) }
    }

    /// Every local date on which a user has events or a stored day.
    public func dates(of user: User.ID) async throws -> [LocalDate] {
        try await self.sql.raw(
            """
            SELECT DISTINCT local_date FROM activity_events WHERE user_id = \(bind: user.rawValue)
            UNION SELECT local_date FROM daily_tracking WHERE user_id = \(bind: user.rawValue)
            """
        ).all().compactMap { LocalDate(iso: try $0.decode(column: "local_date", as: String.self)) }.sorted()
    }
}

/// A user's local day: the unit derived state is kept in.
public struct UserDay: Hashable, Comparable, Sendable {
    public var user: User.ID
    public var date: LocalDate

    public init(user: User.ID, date: LocalDate) {
        self.user = user
        self.date = date
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.user, lhs.date) < (rhs.user, rhs.date) }
}

/// A user's client event id: the same key twice is the same input.
public struct ClientEventKey: Hashable, Sendable {
    public var user: User.ID
    public var clientEventID: String

    public init(user: User.ID, clientEventID: String) {
        self.user = user
        self.clientEventID = clientEventID
    }
}

extension ActivityQueries {
    /// Whether any event, live or deleted, was recorded for the user's day: such a day must have a stored row.
    public func activitiesIncludingDeletedExist(of user: User.ID, on date: LocalDate) async throws -> Bool {
        try await self.sql.raw(
            "SELECT 1 AS one FROM activity_events WHERE user_id = \(bind: user.rawValue) AND local_date = \(bind: date.iso) LIMIT 1"
        ).first() != nil
    }
}

/// Row decoding and JSON every namespace may use.
extension Transaction {
    static func activity(from row: any SQLRow) throws -> StoredActivity {
        try Self.activity(from: row, decoder: JSONDecoder())
    }

    static func activity(from row: any SQLRow, decoder: JSONDecoder) throws -> StoredActivity {
        let payload = try ActivityPayloads.shared.payload(
            try row.decode(column: "payload", as: String.self),
            decoder: decoder
        )
        let flagsText = try row.decode(column: "flags", as: String.self)
        let flags = flagsText == "[]" ? [] : try decoder.decode([String].self, from: Data(flagsText.utf8))
        let dateText = try row.decode(column: "local_date", as: String.self)
        guard let date = LocalDate(iso: dateText),
            let source = ActivitySource(rawValue: try row.decode(column: "source", as: String.self)),
            let visibility = ActivityVisibility(rawValue: try row.decode(column: "visibility", as: String.self))
        else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "activity_events row is corrupt"))
        }
        let event = ActivityEvent(
            id: ActivityEvent.ID(try row.decode(column: "id", as: String.self)),
            userID: User.ID(try row.decode(column: "user_id", as: String.self)),
            clientEventID: try row.decode(column: "client_event_id", as: String.self),
            occurredAt: try row.decode(column: "occurred_at", as: Date.self),
            timeZone: try row.decode(column: "time_zone", as: String.self),
            localDate: date,
            source: source,
            receivedAt: try row.decode(column: "received_at", as: Date.self),
            payload: payload,
            flags: flags,
            visibility: visibility,
            revision: try row.decode(column: "revision", as: Int.self),
            modifiedAt: try row.decode(column: "modified_at", as: Date?.self)
        )
        return StoredActivity(event: event, deletedAt: try row.decode(column: "deleted_at", as: Date?.self))
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
