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

    /// Users who did something in the app from `first` to `last` (any app event, or an active server event).
    public func activeUsers(from first: LocalDate, to last: LocalDate) async throws -> Set<User.ID> {
        let rows = try await self.sql.raw(
            "SELECT DISTINCT user_id FROM analytics_events WHERE \(Self.active(from: first, to: last))"
        ).all()
        return Set(try rows.map { User.ID(try $0.decode(column: "user_id", as: String.self)) })
    }

    /// How many users did something in the app from `first` to `last`, counted by the database.
    public func activeCount(from first: LocalDate, to last: LocalDate) async throws -> Int {
        try await self.sql.raw(
            "SELECT COUNT(DISTINCT user_id) AS n FROM analytics_events WHERE \(Self.active(from: first, to: last))"
        )
        .first()?.decode(column: "n", as: Int.self) ?? 0
    }

    private static func active(from first: LocalDate, to last: LocalDate) -> SQLQueryString {
        "local_date >= \(bind: first.iso) AND local_date <= \(bind: last.iso) AND \(Self.activeEvent(""))"
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

    /// The events named `name` of the days from `first` to `last`.
    public func events(named name: String, from first: LocalDate, to last: LocalDate) async throws -> [AnalyticsEvent] {
        try await self.sql.raw(
            """
            SELECT * FROM analytics_events
            WHERE name = \(bind: name) AND local_date >= \(bind: first.iso) AND local_date <= \(bind: last.iso)
            """
        ).all().map(AnalyticsEventQueries.event(from:))
    }

    /// How many events named `name` the days from `first` to `last` hold.
    public func count(named name: String, from first: LocalDate, to last: LocalDate) async throws -> Int {
        try await self.sql.raw(
            "SELECT COUNT(*) AS n FROM analytics_events WHERE name = \(bind: name) AND local_date >= \(bind: first.iso) AND local_date <= \(bind: last.iso)"
        ).first()?.decode(column: "n", as: Int.self) ?? 0
    }

    /// How many events the days from `first` to `last` hold, of any name (the rollup benchmark's baseline).
    public func eventCount(from first: LocalDate, to last: LocalDate) async throws -> Int {
        try await self.sql.raw(
            "SELECT COUNT(*) AS n FROM analytics_events WHERE local_date >= \(bind: first.iso) AND local_date <= \(bind: last.iso)"
        ).first()?.decode(column: "n", as: Int.self) ?? 0
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
            SELECT user_id, period, streak FROM streak_entries
            WHERE period >= \(bind: day.adding(days: -13).iso) AND period <= \(bind: day.iso)
            AND user_id IN (SELECT user_id FROM analytics_events WHERE \(Self.active(from: day, to: day)))
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
            SELECT COUNT(DISTINCT user_id) AS n FROM streak_entries
            WHERE status = 'frozen' AND period >= \(bind: first.iso) AND period <= \(bind: last.iso)
            AND user_id IN (SELECT user_id FROM analytics_events WHERE \(Self.active(from: first, to: last)))
            """
        ).first()?.decode(column: "n", as: Int.self) ?? 0
    }

    /// Users who were members of a circle at some instant from `start` to `end`.
    public func circleMembers(from start: Date, to end: Date) async throws -> Set<User.ID> {
        let rows = try await self.sql.raw(
            "SELECT DISTINCT user_id FROM circle_members WHERE joined_at < \(bind: end) AND (left_at IS NULL OR left_at >= \(bind: start))"
        ).all()
        return Set(try rows.map { User.ID(try $0.decode(column: "user_id", as: String.self)) })
    }

    /// Of these emails, how many were opened and how many had a link clicked.
    public func emailEngagement(of notifications: [String]) async throws -> (opened: Int, clicked: Int) {
        var (opened, clicked) = (0, 0)
        for start in stride(from: 0, to: notifications.count, by: 500) {
            let ids = notifications[start..<min(start + 500, notifications.count)].map { SQLQueryString("\(bind: $0)") }
            let row = try await self.sql.raw(
                "SELECT COUNT(opened_at) AS opened, COUNT(clicked_at) AS clicked FROM email_log WHERE notification_id IN (\(ids.joined(separator: ", ")))"
            ).first()
            opened += try row?.decode(column: "opened", as: Int.self) ?? 0
            clicked += try row?.decode(column: "clicked", as: Int.self) ?? 0
        }
        return (opened, clicked)
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
        return try await self.sql.raw(
            "SELECT id, time_zone, created_at FROM users WHERE created_at >= \(bind: start) AND created_at < \(bind: end)"
        ).all().map { row in
            let zone = TimeZone(identifier: try row.decode(column: "time_zone", as: String.self)) ?? .gmt
            return UserDay(
                user: User.ID(try row.decode(column: "id", as: String.self)),
                date: LocalDate(try row.decode(column: "created_at", as: Date.self), in: zone)
            )
        }
    }
}
