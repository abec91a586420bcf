public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The operator console's reads across everyone: accounts by name, the job queue, circles and challenges,
    /// the delivery log.
    public var console: ConsoleQueries { ConsoleQueries(tx: self) }
}

public struct ConsoleQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    // MARK: Accounts

    /// Accounts whose name has a term starting with `prefix` (the people-search index), disabled ones too.
    public func accounts(matching prefix: NameSearch.Term, limit: Int) async throws -> [User] {
        try await self.sql.raw(
            """
            SELECT DISTINCT u.* FROM user_search_terms t JOIN users u ON u.id = t.user_id
            WHERE t.whole = \(bind: prefix.whole) AND t.term >= \(bind: prefix.text) AND t.term < \(bind: NameSearch.upperBound(of: prefix.text))
            ORDER BY u.created_at, u.id LIMIT \(unsafeRaw: String(limit))
            """
        ).all().map(Transaction.user(from:))
    }

    // MARK: Jobs

    private func condition(_ state: JobState, now: Date) -> SQLQueryString {
        let unleased: SQLQueryString = "(lease_expires_at IS NULL OR lease_expires_at <= \(bind: now))"
        return switch state {
        case .due: "status = 'pending' AND run_at <= \(bind: now) AND \(unleased)"
        case .scheduled: "status = 'pending' AND run_at > \(bind: now) AND \(unleased)"
        case .running: "status = 'pending' AND lease_expires_at > \(bind: now)"
        case .failed: "status = 'failed'"
        }
    }

    /// How many jobs are in each state at `now`.
    public func jobCounts(at now: Date) async throws -> [JobState: Int] {
        var counts: [JobState: Int] = [:]
        for state in JobState.allCases {
            let row = try await self.sql.raw("SELECT COUNT(*) AS n FROM jobs WHERE \(self.condition(state, now: now))")
                .first()
            counts[state] = try row?.decode(column: "n", as: Int.self) ?? 0
        }
        return counts
    }

    /// Up to `limit` jobs in `state`: due and scheduled soonest first, running by lease, failed latest first.
    /// A page of the jobs in `state`, after the job `last` (the last of the page before): due and scheduled
    /// soonest first, running by lease, failed latest first. (A job that moved on since still marks its place by
    /// what it is now.)
    public func jobs(in state: JobState, at now: Date, after last: String?, limit: Int) async throws -> [JobRecord] {
        let order: SQLQueryString =
            switch state {
            case .due, .scheduled: "run_at, id"
            case .running: "lease_expires_at, id"
            case .failed: "finished_at DESC, id"
            }
        let after: SQLQueryString =
            switch (state, last) {
            case (_, nil): ""
            case (.due, let id?), (.scheduled, let id?):
                "AND (run_at, id) > (SELECT l.run_at, l.id FROM jobs l WHERE l.id = \(bind: id))"
            case (.running, let id?):
                "AND (lease_expires_at, id) > (SELECT l.lease_expires_at, l.id FROM jobs l WHERE l.id = \(bind: id))"
            case (.failed, let id?):
                """
                AND (finished_at < (SELECT l.finished_at FROM jobs l WHERE l.id = \(bind: id))
                    OR (finished_at = (SELECT l.finished_at FROM jobs l WHERE l.id = \(bind: id)) AND id > \(bind: id)))
                """
            }
        return try await self.sql.raw(
            """
            SELECT * FROM jobs WHERE \(self.condition(state, now: now)) \(after) ORDER BY \(order) LIMIT \(bind: limit)
            """
        ).all().map(JobQueries.job(from:))
    }

    public func job(_ id: String) async throws -> JobRecord? {
        try await self.sql.raw("SELECT * FROM jobs WHERE id = \(bind: id)").first().map(JobQueries.job(from:))
    }

    /// A failed job made due at `now` with its attempts counted afresh; false when it is not failed (any more).
    public func retry(_ id: String, at now: Date) async throws -> Bool {
        let rows = try await self.sql.raw(
            """
            UPDATE jobs SET status = 'pending', run_at = \(bind: now), attempts = 0, finished_at = NULL, lease_owner = NULL, lease_expires_at = NULL
            WHERE id = \(bind: id) AND status = 'failed' RETURNING id
            """
        ).all()
        return !rows.isEmpty
    }

    // MARK: Circles and challenges

    /// Circles newest first (their ids are time-ordered) before `cursor`, each with its members now.
    public func circles(before cursor: String?, limit: Int) async throws -> [(circle: FitCircle, members: Int)] {
        let after: SQLQueryString = cursor.map { "WHERE c.id < \(bind: $0)" } ?? ""
        return try await self.sql.raw(
            """
            SELECT c.*, (SELECT COUNT(*) FROM circle_members m WHERE m.circle_id = c.id AND m.left_at IS NULL) AS member_count
            FROM circles c \(after) ORDER BY c.id DESC LIMIT \(unsafeRaw: String(limit))
            """
        ).all().map { (try CircleQueries.circle(from: $0), try $0.decode(column: "member_count", as: Int.self)) }
    }

    /// Challenges newest first before `cursor`, with their participants and escrow.
    public func challenges(before cursor: String?, limit: Int) async throws -> [(
        challenge: Challenge, participants: Int, escrow: Int
    )] {
        let after: SQLQueryString = cursor.map { "WHERE id < \(bind: $0)" } ?? ""
        return try await self.sql.raw(
            "SELECT * FROM challenges \(after) ORDER BY id DESC LIMIT \(unsafeRaw: String(limit))"
        ).all().map { row in
            (
                try ChallengeQueries.challenge(from: row), try row.decode(column: "participant_count", as: Int.self),
                try row.decode(column: "escrow", as: Int.self)
            )
        }
    }

    // MARK: The delivery log

    /// Attempts latest first (their ids are time-ordered), before the attempt `cursor` (the page before's last).
    public func deliveries(
        channel: NotificationChannel?,
        outcome: String?,
        before cursor: String?,
        limit: Int
    ) async throws -> [DeliveryLogEntry] {
        var conditions: [SQLQueryString] = []
        if let channel { conditions.append("a.channel = \(bind: channel.rawValue)") }
        if let outcome { conditions.append("a.outcome = \(bind: outcome)") }
        if let cursor { conditions.append("a.id < \(bind: cursor)") }
        let filter: SQLQueryString = conditions.isEmpty ? "" : "WHERE \(conditions.joined(separator: " AND "))"
        return try await self.sql.raw(
            """
            SELECT a.*, n.type AS notification_type, n.user_id AS notification_user FROM delivery_attempts a
            JOIN notifications n ON n.id = a.notification_id \(filter)
            ORDER BY a.id DESC LIMIT \(unsafeRaw: String(limit))
            """
        ).all().map { row in
            DeliveryLogEntry(
                attempt: try DeliveryQueries.attempt(from: row),
                notificationType: try row.decode(column: "notification_type", as: String.self),
                user: User.ID(try row.decode(column: "notification_user", as: String.self))
            )
        }
    }
}
