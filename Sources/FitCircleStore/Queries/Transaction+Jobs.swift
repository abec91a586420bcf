public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of the job queue beyond enqueueing (which every feature does, on `Transaction`): claims,
    /// leases, outcomes, the scheduler's lead.
    public var jobs: JobQueries { JobQueries(tx: self) }

    /// Queues jobs whose dedupe key was never queued; answers how many were new. Many rows go in a statement,
    /// 500 at most (a settlement's notifications can be tens of thousands).
    @discardableResult
    public func enqueue(_ jobs: [JobRecord], at now: Date) async throws -> Int {
        var queued = 0
        for part in jobs.chunks(of: 500) {
            let rows = part.map { job -> SQLQueryString in
                """
                (\(bind: job.id), \(bind: job.kind), \(bind: job.payload), \(bind: job.dedupeKey), 'pending', \(bind: job.runAt), 0,
                \(bind: job.maxAttempts), \(bind: now))
                """
            }
            queued += try await self.sql.raw(
                """
                INSERT INTO jobs (id, kind, payload, dedupe_key, status, run_at, attempts, max_attempts, created_at)
                VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (dedupe_key) DO NOTHING RETURNING id
                """
            ).all().count
        }
        return queued
    }
}

public struct JobQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }
    private var dialect: Store.Dialect { self.tx.dialect }

    /// Leases up to `limit` due jobs of `kinds` to `owner` until `leaseUntil`: pending jobs whose time has
    /// come and whose lease (if a worker took them before and died) has expired. Other workers skip locked
    /// rows; a node never takes a kind it has no handler for (a newer node's, or one whose transport comes later).
    public func claim(kinds: Set<String>, limit: Int, owner: String, leaseUntil: Date, now: Date) async throws
        -> [JobRecord]
    {
        guard !kinds.isEmpty else { return [] }
        let lock = self.dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        let kindList = SQLList(kinds.sorted().map { SQLBind($0) })
        return try await self.sql.raw(
            """
            UPDATE jobs SET lease_owner = \(bind: owner), lease_expires_at = \(bind: leaseUntil), attempts = attempts + 1
            WHERE id IN (
                SELECT id FROM jobs
                WHERE status = 'pending' AND kind IN (\(kindList)) AND run_at <= \(bind: now)
                    AND (lease_expires_at IS NULL OR lease_expires_at < \(bind: now))
                ORDER BY run_at, id LIMIT \(bind: limit)\(unsafeRaw: lock)
            )
            RETURNING *
            """
        ).all().map(Self.job(from:)).sorted { ($0.runAt, $0.id) < ($1.runAt, $1.id) }
    }

    /// Marks leased jobs done; answers how many were still this owner's (a lost lease means another worker
    /// took the job over).
    public func complete(_ ids: [String], owner: String, at now: Date) async throws -> Int {
        var kept = 0
        for start in stride(from: 0, to: ids.count, by: 500) {
            let part = ids[start..<min(start + 500, ids.count)]
            kept += try await self.sql.raw(
                """
                UPDATE jobs SET status = 'done', finished_at = \(bind: now), lease_owner = NULL, lease_expires_at = NULL
                WHERE id IN (\(SQLList(part.map { SQLBind($0) }))) AND lease_owner = \(bind: owner) AND status = 'pending'
                RETURNING id
                """
            ).all().count
        }
        return kept
    }

    /// Gives leased jobs back unrun (their runner is stopping): due again at once for any runner, the
    /// attempt their claim counted taken back.
    public func release(_ ids: [String], owner: String) async throws {
        guard !ids.isEmpty else { return }
        try await self.sql.raw(
            """
            UPDATE jobs SET lease_owner = NULL, lease_expires_at = NULL, attempts = attempts - 1
            WHERE id IN (\(SQLList(ids.map { SQLBind($0) }))) AND lease_owner = \(bind: owner) AND status = 'pending'
            """
        ).run()
    }

    /// Records a failed attempt: the job runs again at `retryAt`, or is given up when `retryAt` is nil.
    public func fail(_ id: String, owner: String, error: String, retryAt: Date?, at now: Date) async throws {
        if let retryAt {
            try await self.sql.raw(
                """
                UPDATE jobs SET run_at = \(bind: retryAt), last_error = \(bind: error), lease_owner = NULL, lease_expires_at = NULL
                WHERE id = \(bind: id) AND lease_owner = \(bind: owner) AND status = 'pending'
                """
            ).run()
        } else {
            try await self.sql.raw(
                """
                UPDATE jobs SET status = 'failed', last_error = \(bind: error), finished_at = \(bind: now), lease_owner = NULL,
                    lease_expires_at = NULL
                WHERE id = \(bind: id) AND lease_owner = \(bind: owner) AND status = 'pending'
                """
            ).run()
        }
    }

    public func job(withDedupeKey key: String) async throws -> JobRecord? {
        try await self.sql.raw("SELECT * FROM jobs WHERE dedupe_key = \(bind: key)").first().map(Self.job(from:))
    }

    public func all(kind: String) async throws -> [JobRecord] {
        try await self.sql.raw("SELECT * FROM jobs WHERE kind = \(bind: kind) ORDER BY run_at, id").all().map(
            Self.job(from:)
        )
    }

    /// Whether this transaction is the scheduler's leader until it ends: PostgreSQL's transaction-scoped
    /// advisory lock, taken by one node at a time; SQLite's writer is one process already.
    public func leadScheduler() async throws -> Bool {
        guard self.dialect == .postgres else { return true }
        // Advisory locks are per database: the key names the schema, so deployments that share a database
        // in different schemas (and the tests) each have their own leader.
        let row = try await self.sql.raw(
            "SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || '.fitcircle.scheduler')) AS leader"
        ).first()
        return try row?.decode(column: "leader", as: Bool.self) ?? false
    }

    /// Every time zone some user lives in or some circle calls home.
    public func timeZonesInUse() async throws -> [String] {
        try await self.sql.raw(
            """
            SELECT time_zone FROM users WHERE disabled_at IS NULL UNION SELECT time_zone FROM circles WHERE archived_at IS NULL ORDER BY time_zone
            """
        ).all().map {
            try $0.decode(column: "time_zone", as: String.self)
        }
    }

    /// Users of one time zone, in id order, after `after`, at most `limit`.
    public func users(inTimeZone zone: String, after: User.ID?, limit: Int) async throws -> [User.ID] {
        try await self.sql.raw(
            """
            SELECT id FROM users WHERE time_zone = \(bind: zone) AND disabled_at IS NULL AND id > \(bind: after?.rawValue ?? "")
            ORDER BY id LIMIT \(bind: limit)
            """
        ).all().map { User.ID(try $0.decode(column: "id", as: String.self)) }
    }

    static func job(from row: any SQLRow) throws -> JobRecord {
        var job = JobRecord(
            id: try row.decode(column: "id", as: String.self),
            kind: try row.decode(column: "kind", as: String.self),
            payload: try row.decode(column: "payload", as: String.self),
            dedupeKey: try row.decode(column: "dedupe_key", as: String.self),
            runAt: try row.decode(column: "run_at", as: Date.self),
            maxAttempts: try row.decode(column: "max_attempts", as: Int.self)
        )
        job.status = JobRecord.Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .pending
        job.attempts = try row.decode(column: "attempts", as: Int.self)
        job.leaseOwner = try row.decode(column: "lease_owner", as: String?.self)
        job.leaseExpiresAt = try row.decode(column: "lease_expires_at", as: Date?.self)
        job.lastError = try row.decode(column: "last_error", as: String?.self)
        return job
    }
}
