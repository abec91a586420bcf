public import FitCircleJobs
import FitCircleStore

/// Once a day (03:30 UTC, one job for the whole cluster) deletes what has outlived its use: idempotency
/// keys past their retention, rate-limit keys at rest, app analytics events past theirs and the used
/// nonces of web sign-ins whose tokens have expired. All are also
/// harmless if kept: a purge that does not run only lets the tables grow.
public struct Housekeeping: JobOwner {
    public static let purge = "housekeeping.purge"
    public static let schedules = [ZoneSchedule(kind: Self.purge, hour: 3, minute: 30, zone: "UTC")]
    /// Rows deleted per transaction, so that a purge never holds locks for long.
    static let batchSize = 1_000

    let idempotency: Idempotency
    let rateLimits: SharedRateLimits
    let events: Events
    let accounts: Accounts

    public init(idempotency: Idempotency, rateLimits: SharedRateLimits, events: Events, accounts: Accounts) {
        self.idempotency = idempotency
        self.rateLimits = rateLimits
        self.events = events
        self.accounts = accounts
    }

    public func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        try jobs.register(Self.purge) { _ in _ = try await self.run() }
        jobs.schedule(Self.schedules)
    }

    /// Runs `delete` (up to `limit` rows, answering how many went) a transaction at a time until a batch
    /// comes back short; answers the rows deleted in all.
    static func inBatches(
        on store: Store,
        _ delete: @escaping @Sendable (Transaction, _ limit: Int) async throws -> Int
    ) async throws -> Int {
        var deleted = 0
        while true {
            let batch = try await store.transaction { tx in try await delete(tx, Self.batchSize) }
            deleted += batch
            if batch < Self.batchSize { return deleted }
        }
    }

    /// Purges all four; answers how many rows of each went.
    public func run() async throws -> (idempotencyKeys: Int, rateLimits: Int, appEvents: Int, signInNonces: Int) {
        (
            try await self.idempotency.purgeExpired(), try await self.rateLimits.purgeRested(),
            try await self.events.purgeExpired(),
            try await self.accounts.purgeUsedNonces()
        )
    }
}
