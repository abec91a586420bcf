public import FitCircleCore
public import FitCircleDelivery
public import FitCircleJobs
public import FitCircleStore
import Foundation

/// Forwards every analytics event to an external service (off unless `analytics.forward.url` is set):
/// once a minute one job for the whole cluster — each run queues the next minute's first, keyed by its
/// minute, so the chain holds across nodes, restarts and failures — sends what is waiting in batches of
/// 100 and marks each batch forwarded after the service answered. A batch refused for good (a 4xx other
/// than 408 and 429) is let go rather than retried forever; one that may succeed later (no answer, 408, 429,
/// 5xx) is retried by the job with backoff, never lost. No lock is held while the service answers, so a
/// batch may reach it twice (an answer lost, two runs at once); each event carries its identity as
/// `messageId`, by which such services count it once.
public struct EventForwarding: JobOwner {
    let store: Store
    let transport: AnalyticsForwardTransport?
    let ids: IDGenerator
    let clock: WallClock

    public static let forward = "analytics.forward"
    static let batchSize = 100
    /// Batches one run sends at most, so a backlog is worked off over several runs.
    static let batchesPerRun = 50

    public init(store: Store, transport: AnalyticsForwardTransport?, ids: IDGenerator, clock: WallClock) {
        self.store = store
        self.transport = transport
        self.ids = ids
        self.clock = clock
    }

    /// Only a node that can forward takes the job.
    public func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        guard self.transport != nil else { return }
        try jobs.register(Self.forward) { _ in try await self.run() }
    }

    /// Queues the current minute's run (a node does so when it starts; queued already: nothing changes).
    public func start() async throws {
        guard self.transport != nil else { return }
        let now = self.clock.now()
        try await self.store.transaction { tx in _ = try await tx.enqueue([self.job(at: now)], at: now) }
    }

    /// The next link of the chain, then what is waiting.
    /// - Returns: how many events the service accepted.
    @discardableResult
    public func run() async throws -> Int {
        guard let transport = self.transport else { return 0 }
        let now = self.clock.now()
        try await self.store.transaction { tx in
            _ = try await tx.enqueue([self.job(at: now.addingTimeInterval(60))], at: now)
        }
        var forwarded = 0
        for _ in 0..<Self.batchesPerRun {
            let batch = try await self.store.read { tx in try await tx.events.pendingForward(limit: Self.batchSize) }
            guard !batch.isEmpty else { break }
            let attempt = await transport.send(batch)
            switch attempt.outcome {
            case .retryable(let reason, let after):
                throw RetryLater(reason: "the analytics service: \(reason)", after: after)
            case .delivered:
                forwarded += batch.count
                fallthrough
            default:
                try await self.store.transaction { tx in
                    try await tx.events.forwarded(batch.map { EventKey(user: $0.userID, key: $0.key) })
                }
            }
            if batch.count < Self.batchSize { break }
        }
        return forwarded
    }

    /// The run of the minute holding `instant`.
    private func job(at instant: Date) -> JobRecord {
        let minute = Int((instant.timeIntervalSince1970 / 60).rounded(.down))
        return JobRecord(
            id: self.ids.make(JobRecord.self).rawValue,
            kind: Self.forward,
            payload: "{}",
            dedupeKey: "\(Self.forward):\(minute)",
            runAt: Date(timeIntervalSince1970: Double(minute) * 60),
            maxAttempts: 10
        )
    }
}
