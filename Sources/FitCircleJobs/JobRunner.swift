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
    /// The kinds run together, up to a batch at a time (`JobRegistry.register(_:batchesOf:_:)`).
    let batches: [String: JobBatch]
    let clock: WallClock
    let logger: Logger
    /// This runner's name in the leases it holds.
    public let owner: String
    public var lease: TimeInterval = 120
    public var backoff = Backoff()

    public init(
        store: Store,
        handlers: [String: JobHandler],
        batches: [String: JobBatch] = [:],
        clock: WallClock,
        logger: Logger,
        owner: String = UUID().uuidString
    ) {
        self.store = store
        self.handlers = handlers
        self.batches = batches.filter { handlers[$0.key] != nil }
        self.clock = clock
        self.logger = logger
        self.owner = owner
    }

    /// Claims up to `limit` due jobs and runs them one after the other; answers how many ran. A kind run
    /// in batches takes more of its due jobs, up to its batch size, and runs them together. Once
    /// `isStopping` says so, the work running finishes and the claimed jobs not started yet are given back.
    @discardableResult
    public func runDue(limit: Int = 20, isStopping: @Sendable () -> Bool = { false }) async throws -> Int {
        let now = self.clock.now()
        let leaseUntil = now.addingTimeInterval(self.lease)
        var jobs = try await self.store.transaction { tx in
            try await tx.jobs.claim(
                kinds: Set(self.handlers.keys),
                limit: limit,
                owner: self.owner,
                leaseUntil: leaseUntil,
                now: now
            )
        }
        for (kind, batch) in self.batches.sorted(by: { $0.key < $1.key }) {
            let claimed = jobs.count { $0.kind == kind }
            guard claimed > 0, claimed < batch.size else { continue }
            jobs += try await self.store.transaction { tx in
                try await tx.jobs.claim(
                    kinds: [kind],
                    limit: batch.size - claimed,
                    owner: self.owner,
                    leaseUntil: leaseUntil,
                    now: now
                )
            }
        }
        var ran = 0
        let units = Self.units(of: jobs, batched: Set(self.batches.keys))
        for (index, unit) in units.enumerated() {
            if isStopping() {
                let unstarted = units[index...].flatMap { $0.map(\.id) }
                try await self.store.transaction { tx in try await tx.jobs.release(unstarted, owner: self.owner) }
                return ran
            }
            if unit.count > 1, let batch = self.batches[unit[0].kind] {
                await self.run(unit, as: batch)
            } else {
                for job in unit { await self.run(job) }
            }
            ran += unit.count
        }
        return ran
    }

    /// The claimed jobs as units of work, in the order claimed: each job alone, but the jobs of a batched
    /// kind together where the kind first comes.
    static func units(of jobs: [JobRecord], batched: Set<String>) -> [[JobRecord]] {
        var units: [[JobRecord]] = []
        var batchOf: [String: Int] = [:]
        for job in jobs {
            if batched.contains(job.kind) {
                if let index = batchOf[job.kind] {
                    units[index].append(job)
                    continue
                }
                batchOf[job.kind] = units.count
            }
            units.append([job])
        }
        return units
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

    /// Runs jobs of one kind together; when the batch fails, each of its jobs runs alone, so one that
    /// cannot run fails (and is retried or given up) alone and the others still run.
    private func run(_ jobs: [JobRecord], as batch: JobBatch) async {
        do {
            try await batch.run(jobs)
        } catch {
            self.logger.info(
                "A batch of jobs failed; running them one by one",
                metadata: ["kind": "\(jobs[0].kind)", "jobs": "\(jobs.count)", "error": "\(error)"]
            )
            for job in jobs { await self.run(job) }
            return
        }
        do {
            let kept = try await self.store.transaction { tx in
                try await tx.jobs.complete(jobs.map(\.id), owner: self.owner, at: self.clock.now())
            }
            if kept < jobs.count {
                self.logger.warning(
                    "Leases expired while a batch of jobs ran",
                    metadata: ["kind": "\(jobs[0].kind)", "jobs": "\(jobs.count)", "lost": "\(jobs.count - kept)"]
                )
            }
        } catch {
            // Done but not marked: the lease expires and the jobs run again, which their handler allows.
            self.logger.warning(
                "Marking a batch of jobs done failed",
                metadata: ["kind": "\(jobs[0].kind)", "error": "\(error)"]
            )
        }
    }

    private func run(_ job: JobRecord) async {
        do {
            // Only kinds this runner handles are claimed (`claimJobs(kinds:)`).
            guard let handler = self.handlers[job.kind] else { throw UnhandledJobKind(kind: job.kind) }
            try await handler(job)
            let kept = try await self.store.transaction { tx in
                try await tx.jobs.complete([job.id], owner: self.owner, at: self.clock.now())
            }
            if kept == 0 {
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
