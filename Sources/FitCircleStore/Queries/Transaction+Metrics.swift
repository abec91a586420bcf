public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of the metrics rollup (`metric_rollups`) and the facts of a day it is computed from.
    public var metrics: MetricQueries { MetricQueries(tx: self) }
}

/// Each query reads one day's (or one window's) rows through an index on the day: a rollup costs what
/// the day holds, never the whole history.
public struct MetricQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    // MARK: The rollup

    public func save(_ rows: [MetricRow], at now: Date) async throws {
        for start in stride(from: 0, to: rows.count, by: 200) {
            let values = rows[start..<min(start + 200, rows.count)].map { row -> SQLQueryString in
                "(\(bind: row.day.iso), \(bind: row.metric), \(bind: row.numerator), \(bind: row.denominator), \(bind: now))"
            }
            try await self.sql.raw(
                """
                INSERT INTO metric_rollups (day, metric, numerator, denominator, computed_at) VALUES \(values.joined(separator: ", "))
                ON CONFLICT (day, metric) DO UPDATE SET numerator = excluded.numerator, denominator = excluded.denominator, computed_at = excluded.computed_at
                """
            ).run()
        }
    }

    /// The rows of the days from `first` to `last`.
    public func rows(from first: LocalDate, to last: LocalDate) async throws -> [MetricRow] {
        try await self.sql.raw(
            "SELECT day, metric, numerator, denominator FROM metric_rollups WHERE day >= \(bind: first.iso) AND day <= \(bind: last.iso) ORDER BY day, metric"
        ).all().map { row in
            MetricRow(
                day: LocalDate(iso: try row.decode(column: "day", as: String.self)) ?? first,
                metric: try row.decode(column: "metric", as: String.self),
                numerator: try row.decode(column: "numerator", as: Double.self),
                denominator: try row.decode(column: "denominator", as: Double.self)
            )
        }
    }

    // MARK: The facts of a day

    /// Gives the day's grouped passes room to group a million people in memory (PostgreSQL's default 4 MB
    /// spills them to disk, which doubled the active counts' time at 1,000,000 accounts), for the rest of a
    /// `Store.snapshot`.
    public func makeRoomForGroups() async throws {
        guard self.tx.dialect == .postgres else { return }
        try await self.sql.raw("SET LOCAL work_mem = '64MB'").run()
    }

    /// How many users did something in the app on `day`, in the week and in the 30 days ending with it: one
    /// pass over the month's index entries (`analytics_events_day_activity` holds each event's source and
    /// user), one group a user.
    public func activeCounts(endingOn day: LocalDate) async throws -> (day: Int, week: Int, month: Int) {
        let (weekStart, monthStart) = (day.adding(days: -6), day.adding(days: -29))
        let row = try await self.sql.raw(
            """
            SELECT COUNT(*) AS month, COALESCE(SUM(on_day), 0) AS day, COALESCE(SUM(in_week), 0) AS week FROM (
                SELECT user_id, MAX(CASE WHEN local_date = \(bind: day.iso) THEN 1 ELSE 0 END) AS on_day,
                    MAX(CASE WHEN local_date >= \(bind: weekStart.iso) THEN 1 ELSE 0 END) AS in_week
                FROM analytics_events WHERE \(Self.active(from: monthStart, to: day)) GROUP BY user_id
            ) AS active
            """
        ).first()
        return (
            try row?.decode(column: "day", as: Int.self) ?? 0, try row?.decode(column: "week", as: Int.self) ?? 0,
            try row?.decode(column: "month", as: Int.self) ?? 0
        )
    }

    /// How many of `users` did something in the app on `day`.
    public func activeCount(of users: Set<User.ID>, on day: LocalDate) async throws -> Int {
        try await self.distinctUsers(of: users, "\(Self.active(from: day, to: day))")
    }

    /// The events named `name` of the days from `first` to `last`: the days as a list, so that each is one
    /// seek of `analytics_events_day_activity` (day, name, …) where a range of days would read every name's
    /// entries of those days.
    private static func named(_ name: String, from first: LocalDate, to last: LocalDate) -> SQLQueryString {
        var days: [SQLQueryString] = []
        var day = first
        while day <= last {
            days.append("\(bind: day.iso)")
            day = day.adding(days: 1)
        }
        return "name = \(bind: name) AND local_date IN (\(days.joined(separator: ", ")))"
    }

    /// An event of the days from `first` to `last` that shows its user active (columns of `alias`).
    private static func active(from first: LocalDate, to last: LocalDate, _ alias: String = "") -> SQLQueryString {
        let prefix = alias.isEmpty ? "" : "\(alias)."
        return
            "\(unsafeRaw: prefix)local_date >= \(bind: first.iso) AND \(unsafeRaw: prefix)local_date <= \(bind: last.iso) AND \(Self.activeEvent(alias))"
    }

    /// An event that shows its user active: any app event, or a server event of something the user did
    /// (columns of `alias`, `""` for none).
    static func activeEvent(_ alias: String) -> SQLQueryString {
        let names = MetricCatalog.activeServerEvents.sorted { $0.rawValue < $1.rawValue }.map {
            SQLQueryString("\(bind: $0.rawValue)")
        }
        let prefix = alias.isEmpty ? "" : "\(alias)."
        return "(\(unsafeRaw: prefix)source = 'app' OR \(unsafeRaw: prefix)name IN (\(names.joined(separator: ", "))))"
    }

    /// How many of `users` have an event named `name` from `first` to `last` (whose `property` is true,
    /// when given): a cohort's few people, read through their own events.
    public func count(
        of users: Set<User.ID>,
        named name: String,
        from first: LocalDate,
        to last: LocalDate,
        whereTrue property: String? = nil
    ) async throws -> Int {
        let also: SQLQueryString = property.map { " AND \(self.isTrue($0))" } ?? ""
        return try await self.distinctUsers(
            of: users,
            "\(Self.named(name, from: first, to: last))\(also)"
        )
    }

    private func distinctUsers(of users: Set<User.ID>, _ condition: SQLQueryString) async throws -> Int {
        var count = 0
        for part in users.map(\.rawValue).sorted().chunks(of: 1_000) {
            let ids = part.map { SQLQueryString("\(bind: $0)") }
            count +=
                try await self.sql.raw(
                    """
                    SELECT COUNT(DISTINCT user_id) AS n FROM analytics_events
                    WHERE user_id IN (\(ids.joined(separator: ", "))) AND \(condition)
                    """
                ).first()?.decode(column: "n", as: Int.self) ?? 0
        }
        return count
    }

    /// The events named `name` of the days from `first` to `last`.
    public func events(named name: String, from first: LocalDate, to last: LocalDate) async throws -> [AnalyticsEvent] {
        try await self.sql.raw(
            """
            SELECT * FROM analytics_events
            WHERE \(Self.named(name, from: first, to: last))
            """
        ).all().map(AnalyticsEventQueries.event(from:))
    }

    /// How many events named `name` the days from `first` to `last` hold (of them, those whose property
    /// `isTrue` is true, `isPresent` is there, or `text` is that string, when given).
    public func count(
        named name: String,
        from first: LocalDate,
        to last: LocalDate,
        whereTrue isTrue: String? = nil,
        wherePresent isPresent: String? = nil,
        whereText text: (property: String, is: String)? = nil
    ) async throws -> Int {
        var condition: SQLQueryString = ""
        if let isTrue { condition = " AND \(self.isTrue(isTrue))" }
        if let isPresent { condition = "\(condition) AND \(self.isPresent(isPresent))" }
        if let text { condition = "\(condition) AND \(self.value(text.property)) = \(bind: text.is)" }
        return try await self.sql.raw(
            """
            SELECT COUNT(*) AS n FROM analytics_events
            WHERE \(Self.named(name, from: first, to: last))\(condition)
            """
        ).first()?.decode(column: "n", as: Int.self) ?? 0
    }

    /// How many events the days from `first` to `last` hold, of any name (the rollup benchmark's baseline).
    public func eventCount(from first: LocalDate, to last: LocalDate) async throws -> Int {
        try await self.sql.raw(
            "SELECT COUNT(*) AS n FROM analytics_events WHERE local_date >= \(bind: first.iso) AND local_date <= \(bind: last.iso)"
        ).first()?.decode(column: "n", as: Int.self) ?? 0
    }

    /// What the people did on `day` that the figures count, in one pass over the day's check-ins,
    /// submissions and opens, grouped by person: each kind's rows lie all over the table, so a pass each
    /// would read the day's pages once a kind.
    public func people(on day: LocalDate, earlyBefore hour: Int) async throws -> DayPeople {
        let (checkIn, submitted, opened) = (
            ServerEvent.checkInCompleted.rawValue, ServerEvent.dataSubmitted.rawValue,
            ServerEvent.notificationOpened.rawValue
        )
        let row = try await self.sql.raw(
            """
            SELECT COALESCE(SUM(checked_in), 0) AS checked_in, COALESCE(SUM(sentiment), 0) AS sentiment,
                COUNT(first_hour) AS submitted, COUNT(CASE WHEN first_hour < \(bind: hour) THEN 1 END) AS early,
                COALESCE(SUM(opened), 0) AS opened
            FROM (
                SELECT user_id, MAX(CASE WHEN name = \(bind: checkIn) THEN 1 ELSE 0 END) AS checked_in,
                    MAX(CASE WHEN name = \(bind: checkIn) AND \(self.isTrue("sentiment")) THEN 1 ELSE 0 END) AS sentiment,
                    MIN(CASE WHEN name = \(bind: submitted) THEN \(self.number("localHour")) END) AS first_hour,
                    MAX(CASE WHEN name = \(bind: opened) THEN 1 ELSE 0 END) AS opened
                FROM analytics_events
                WHERE local_date = \(bind: day.iso) AND name IN (\(bind: checkIn), \(bind: submitted), \(bind: opened))
                GROUP BY user_id
            ) AS people
            """
        ).first()
        func count(_ column: String) throws -> Int { try row?.decode(column: column, as: Int.self) ?? 0 }
        return DayPeople(
            checkedIn: try count("checked_in"),
            withSentiment: try count("sentiment"),
            submitted: try count("submitted"),
            submittedEarly: try count("early"),
            openedANotification: try count("opened")
        )
    }

    /// The notifications delivered on `day` and what came of them, in one pass over the deliveries and the
    /// opens, grouped by notification: pushes delivered and those opened within `minutes` of delivery (on
    /// the day or, for a late-evening push, the next), and each email delivered with its open and click.
    public func notifications(on day: LocalDate, openedWithin minutes: Int) async throws -> DayNotifications {
        let (delivered, opened) = (
            ServerEvent.notificationDelivered.rawValue, ServerEvent.notificationOpened.rawValue
        )
        let next = day.adding(days: 1)
        let row = try await self.sql.raw(
            """
            SELECT COALESCE(SUM(pushed), 0) AS pushed, COALESCE(SUM(pushed * opened), 0) AS push_opened,
                CAST(COALESCE(SUM(emailed), 0) AS BIGINT) AS emailed, COUNT(e.opened_at) AS email_opened,
                COUNT(e.clicked_at) AS email_clicked
            FROM (
                SELECT \(self.value("notificationId")) AS id,
                    MAX(CASE WHEN name = \(bind: delivered) AND local_date = \(bind: day.iso) AND \(self.value("channel")) = 'push' THEN 1 ELSE 0 END) AS pushed,
                    SUM(CASE WHEN name = \(bind: delivered) AND local_date = \(bind: day.iso) AND \(self.value("channel")) = 'email' THEN 1 ELSE 0 END) AS emailed,
                    MAX(CASE WHEN name = \(bind: opened) AND \(self.number("minutes")) <= \(bind: minutes) THEN 1 ELSE 0 END) AS opened
                FROM analytics_events
                WHERE name IN (\(bind: delivered), \(bind: opened)) AND local_date IN (\(bind: day.iso), \(bind: next.iso))
                AND \(self.value("notificationId")) IS NOT NULL
                GROUP BY \(self.value("notificationId"))
            ) AS sent LEFT JOIN email_log AS e ON e.notification_id = sent.id AND sent.emailed > 0
            """
        ).first()
        func count(_ column: String) throws -> Int { try row?.decode(column: column, as: Int.self) ?? 0 }
        return DayNotifications(
            pushed: try count("pushed"),
            pushesOpened: try count("push_opened"),
            emailed: try count("emailed"),
            emailsOpened: try count("email_opened"),
            emailsClicked: try count("email_clicked")
        )
    }

    /// How many of the circles' members from `start` to `end` viewed a circle's board from `first` to `last`.
    public func circleMembers(from start: Date, to end: Date, viewingBoardsFrom first: LocalDate, to last: LocalDate)
        async throws -> (members: Int, viewers: Int)
    {
        let members: SQLQueryString =
            "SELECT user_id FROM circle_members WHERE joined_at < \(bind: end) AND (left_at IS NULL OR left_at >= \(bind: start))"
        let row = try await self.sql.raw(
            """
            SELECT (SELECT COUNT(DISTINCT user_id) FROM (\(members)) AS members) AS members,
                (SELECT COUNT(DISTINCT user_id) FROM analytics_events
                 WHERE \(Self.named(ServerEvent.leaderboardViewed.rawValue, from: first, to: last))
                 AND \(self.value("board")) = 'circle' AND user_id IN (\(members))) AS viewers
            """
        ).first()
        return (
            try row?.decode(column: "members", as: Int.self) ?? 0, try row?.decode(column: "viewers", as: Int.self) ?? 0
        )
    }

    // The events' properties, read by each database from their JSON text. A key is always one of the
    // server's own property names, never input.

    /// `key`'s value (as text on PostgreSQL), NULL when it is not there. The server writes each of these keys
    /// with one type.
    private func value(_ key: String) -> SQLQueryString {
        self.tx.dialect == .postgres
            ? "(properties::jsonb ->> '\(unsafeRaw: key)')" : "json_extract(properties, '$.\(unsafeRaw: key)')"
    }

    /// `key`'s value as a number (PostgreSQL: NULL when it is not one, so that no cast fails).
    private func number(_ key: String) -> SQLQueryString {
        self.tx.dialect == .postgres
            ? "(CASE WHEN jsonb_typeof(properties::jsonb -> '\(unsafeRaw: key)') = 'number' THEN (properties::jsonb ->> '\(unsafeRaw: key)')::float8 END)"
            : "json_extract(properties, '$.\(unsafeRaw: key)')"
    }

    /// `key` is `true`.
    private func isTrue(_ key: String) -> SQLQueryString {
        self.tx.dialect == .postgres
            ? "(properties::jsonb -> '\(unsafeRaw: key)') = 'true'::jsonb"
            : "json_type(properties, '$.\(unsafeRaw: key)') = 'true'"
    }

    /// `key` is there (even as `null`).
    private func isPresent(_ key: String) -> SQLQueryString {
        self.tx.dialect == .postgres
            ? "(properties::jsonb -> '\(unsafeRaw: key)') IS NOT NULL"
            : "json_type(properties, '$.\(unsafeRaw: key)') IS NOT NULL"
    }

    public func userCount() async throws -> Int {
        try await self.sql.raw("SELECT COUNT(*) AS n FROM users").first()?.decode(column: "n", as: Int.self) ?? 0
    }

    /// Users with at least one active push device.
    public func pushUserCount() async throws -> Int {
        try await self.sql.raw("SELECT COUNT(DISTINCT user_id) AS n FROM push_devices WHERE active").first()?.decode(
            column: "n",
            as: Int.self
        ) ?? 0
    }

    /// Of the users with goals of `span` for `period`, how many there are and how many completed them all.
    public func goalCompletion(span: String, period: LocalDate) async throws -> (users: Int, completed: Int) {
        let row = try await self.sql.raw(
            """
            SELECT COUNT(*) AS users, COALESCE(SUM(CASE WHEN done = goals THEN 1 ELSE 0 END), 0) AS completed FROM (
                SELECT user_id, COUNT(*) AS goals, COUNT(completed_at) AS done FROM goals
                WHERE span = \(bind: span) AND period = \(bind: period.iso) GROUP BY user_id
            ) AS planned
            """
        ).first()
        return (
            try row?.decode(column: "users", as: Int.self) ?? 0, try row?.decode(column: "completed", as: Int.self) ?? 0
        )
    }

    /// The closed streak periods of the users active on `day`, from the 13 days before it (two weekly
    /// periods) to `day`, oldest first: where each streak stood that day (`Streak.standing`).
    public func closedStreakPeriods(ofActiveOn day: LocalDate) async throws -> [User.ID: [Streak.Closed]] {
        let rows = try await self.sql.raw(
            """
            SELECT user_id, period, streak FROM streak_entries AS s
            WHERE period >= \(bind: day.adding(days: -13).iso) AND period <= \(bind: day.iso)
            AND EXISTS (SELECT 1 FROM analytics_events AS e WHERE e.user_id = s.user_id AND \(Self.active(from: day, to: day, "e")))
            ORDER BY user_id, period
            """
        ).all()
        var closed: [User.ID: [Streak.Closed]] = [:]
        for row in rows {
            let period = try row.decode(column: "period", as: String.self)
            guard let period = LocalDate(iso: period) else { continue }
            closed[User.ID(try row.decode(column: "user_id", as: String.self)), default: []]
                .append(Streak.Closed(period: period, count: try row.decode(column: "streak", as: Int.self)))
        }
        return closed
    }

    /// How many of the users active from `first` to `last` a freeze covered in a period of those days.
    public func frozenActiveCount(from first: LocalDate, to last: LocalDate) async throws -> Int {
        try await self.sql.raw(
            """
            SELECT COUNT(DISTINCT user_id) AS n FROM streak_entries AS s
            WHERE status = 'frozen' AND period >= \(bind: first.iso) AND period <= \(bind: last.iso)
            AND EXISTS (SELECT 1 FROM analytics_events AS e WHERE e.user_id = s.user_id AND \(Self.active(from: first, to: last, "e")))
            """
        ).first()?.decode(column: "n", as: Int.self) ?? 0
    }
}

extension MetricQueries {
    /// The users whose account was made on local day `day` in their own (current) zone.
    public func signUps(on day: LocalDate) async throws -> Set<User.ID> {
        Set(try await self.madeAround(day).filter { $0.date == day }.map(\.user))
    }

    /// How many accounts there were by the end of `day`, each in its own zone.
    public func accounts(through day: LocalDate) async throws -> Int {
        let before =
            try await self.sql.raw(
                "SELECT COUNT(*) AS n FROM users WHERE created_at < \(bind: Self.window(of: day).start)"
            ).first()?.decode(column: "n", as: Int.self) ?? 0
        return before + (try await self.madeAround(day).filter { $0.date <= day }.count)
    }

    /// Every zone's day lies within 14 hours before and 12 after the UTC day of the same date.
    private static func window(of day: LocalDate) -> (start: Date, end: Date) {
        (
            day.start(in: .gmt).addingTimeInterval(-14 * 3_600),
            day.adding(days: 1).start(in: .gmt).addingTimeInterval(12 * 3_600)
        )
    }

    /// The accounts made in the instants that some zone calls `day`, with the local day each was made on.
    private func madeAround(_ day: LocalDate) async throws -> [UserDay] {
        let (start, end) = Self.window(of: day)
        var zones: [String: TimeZone] = [:]  // a zone is looked up once, not once an account
        return try await self.sql.raw(
            "SELECT id, time_zone, created_at FROM users WHERE created_at >= \(bind: start) AND created_at < \(bind: end)"
        ).all().map { row in
            let identifier = try row.decode(column: "time_zone", as: String.self)
            let zone = zones[identifier] ?? TimeZone(identifier: identifier) ?? .gmt
            zones[identifier] = zone
            return UserDay(
                user: User.ID(try row.decode(column: "id", as: String.self)),
                date: LocalDate(try row.decode(column: "created_at", as: Date.self), in: zone)
            )
        }
    }
}

/// What the people did on a day that the figures count (`MetricQueries.people(on:earlyBefore:)`).
public struct DayPeople: Sendable {
    /// The people who checked in, and those of them who gave a sentiment.
    public var checkedIn: Int
    public var withSentiment: Int
    /// The people who submitted the day's data, and those whose first claim came before the hour.
    public var submitted: Int
    public var submittedEarly: Int
    public var openedANotification: Int
}

/// The notifications of a day and what came of them (`MetricQueries.notifications(on:openedWithin:)`).
public struct DayNotifications: Sendable {
    public var pushed: Int
    public var pushesOpened: Int
    public var emailed: Int
    public var emailsOpened: Int
    public var emailsClicked: Int
}
