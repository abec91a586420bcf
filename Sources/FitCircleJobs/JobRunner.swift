public import FitCircleCore
public import FitCircleStore
public import Foundation
public import Logging

/// What runs a job of one kind. It must be idempotent: a job runs at least once, and again when its worker
/// died before marking it done.
public typealias JobHandler = @Sendable (JobRecord) async throws -> Void

/// Claims due jobs from the queue and runs them. Any number of runners (nodes) may share one database:
/// each job is leased to one of them, and a lease that expires (its runner died) frees the job for another.
public struct JobRunner: Sendable {
    let store: Store
    let handlers: [String: JobHandler]
    let clock: WallClock
    let logger: Logger
    /// This runner's name in the leases it holds.
    public let owner: String
    public var lease: TimeInterval = 120
    public var backoff = Backoff()

    public init(
        store: Store,
        handlers: [String: JobHandler],
        clock: WallClock,
        logger: Logger,
        owner: String = UUID().uuidString
    ) {
        self.store = store
        self.handlers = handlers
        self.clock = clock
        self.logger = logger
        self.owner = owner
    }

    /// Claims up to `limit` due jobs and runs them one after the other; answers how many ran. Once
    /// `isStopping` says so, the job running finishes and the claimed ones not started yet are given back.
    @discardableResult
    public func runDue(limit: Int = 20, isStopping: @Sendable () -> Bool = { false }) async throws -> Int {
        let now = self.clock.now()
        let jobs = try await self.store.transaction { tx in
            try await tx.jobs.claim(
                kinds: Set(self.handlers.keys),
                limit: limit,
                owner: self.owner,
                leaseUntil: now.addingTimeInterval(self.lease),
                now: now
            )
        }
        for (index, job) in jobs.enumerated() {
            if isStopping() {
                let unstarted = jobs[index...].map(\.id)
                try await self.store.transaction { tx in try await tx.jobs.release(unstarted, owner: self.owner) }
                return index
            }
            await self.run(job)
        }
        return jobs.count
    }

    /// Runs until cancelled or `isStopping` (then the job running finishes and the rest are given back),
    /// looking for due jobs every `interval` when the queue is idle.
    public func run(every interval: Duration = .seconds(1), isStopping: @Sendable @escaping () -> Bool = { false })
        async
    {
        while !Task.isCancelled && !isStopping() {
            do {
                if try await self.runDue(isStopping: isStopping) > 0 { continue }
            } catch {
                self.logger.error("Claiming jobs failed", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: interval)
        }
    }

    private func run(_ job: JobRecord) async {
        do {
            // Only kinds this runner handles are claimed (`claimJobs(kinds:)`).
            guard let handler = self.handlers[job.kind] else { throw UnhandledJobKind(kind: job.kind) }
            try await handler(job)
            let kept = try await self.store.transaction { tx in
                try await tx.jobs.complete(job.id, owner: self.owner, at: self.clock.now())
            }
            if !kept {
                self.logger.warning(
                    "A job's lease expired while it ran",
                    metadata: ["job": "\(job.id)", "kind": "\(job.kind)"]
                )
            }
        } catch {
            let backoff = self.backoff.delay(afterAttempt: job.attempts, random: Double.random(in: 0...1))
            let retryAt =
                job.attempts < job.maxAttempts
                ? self.clock.now().addingTimeInterval(max(backoff, (error as? RetryLater)?.after ?? 0))
                : nil
            self.logger.warning(
                "A job failed",
                metadata: [
                    "job": "\(job.id)", "kind": "\(job.kind)", "attempt": "\(job.attempts)", "error": "\(error)",
                ]
            )
            try? await self.store.transaction { tx in
                try await tx.jobs.fail(
                    job.id,
                    owner: self.owner,
                    error: "\(error)",
                    retryAt: retryAt,
                    at: self.clock.now()
                )
            }
        }
    }
}

/// A claimed job of a kind this runner has no handler for: it fails (and is retried elsewhere) instead of
/// trapping the process.
struct UnhandledJobKind: Error, CustomStringConvertible {
    let kind: String
    var description: String { "no handler for jobs of kind \(self.kind)" }
}
