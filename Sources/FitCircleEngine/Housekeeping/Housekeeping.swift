public import FitCircleJobs
import Logging

/// Once a day (03:30 UTC, one job for the whole cluster) deletes what has outlived its use: idempotency
/// keys past their retention and rate-limit keys at rest. Both are also harmless if kept: a purge that
/// does not run only lets the tables grow.
public struct Housekeeping: Sendable {
    public static let purge = "housekeeping.purge"
    public static let schedules = [ZoneSchedule(kind: Self.purge, hour: 3, minute: 30, zone: "UTC")]
    /// Rows deleted per transaction, so that a purge never holds locks for long.
    static let batchSize = 1_000

    let idempotency: Idempotency
    let rateLimits: SharedRateLimits

    public init(idempotency: Idempotency, rateLimits: SharedRateLimits) {
        self.idempotency = idempotency
        self.rateLimits = rateLimits
    }

    public var handlers: [String: JobHandler] {
        [Self.purge: { _ in _ = try await self.run() }]
    }

    /// Purges both; answers how many rows of each went.
    public func run() async throws -> (idempotencyKeys: Int, rateLimits: Int) {
        (try await self.idempotency.purgeExpired(), try await self.rateLimits.purgeRested())
    }
}
