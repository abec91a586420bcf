import Foundation

/// Sends the outbox to the server: activities in batches, the rest one by one, oldest first, each item
/// under its own id so a resend is a replay. A failed attempt leaves the outbox as it was; `start` tries again
/// after a growing, jittered wait (or the server's `Retry-After`) until it is empty.
actor Synchronizer {
    private let outbox: Outbox
    private let sender: OutboxSender
    private let policy: SyncPolicy
    private let now: @Sendable () -> Date
    private var status: SyncStatus
    private var watchers: [UUID: AsyncStream<SyncStatus>.Continuation] = [:]
    private var pass: Task<Void, any Error>?
    private var wait: Task<Void, Never>?
    /// Whether the current wait is a backoff after a failure (only `retryNow` ends it early: a new record
    /// does not override the server's `Retry-After`).
    private var waitIsBackoff = false
    /// What asked for a pass while none was waiting, so that a request that comes between a pass and its
    /// wait is not lost: new items end the next idle wait, `retryNow` any wait.
    private var woken: (newItems: Bool, retry: Bool) = (false, false)
    private var loop: Task<Void, Never>?

    init(outbox: Outbox, sender: OutboxSender, policy: SyncPolicy, now: @escaping @Sendable () -> Date) async {
        self.outbox = outbox
        self.sender = sender
        self.policy = policy
        self.now = now
        self.status = SyncStatus(pending: await outbox.count, rejected: await outbox.rejections.count)
    }

    var current: SyncStatus { self.status }

    /// The status now, then each change.
    func updates() -> AsyncStream<SyncStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: SyncStatus.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        self.watchers[id] = continuation
        continuation.yield(self.status)
        continuation.onTermination = { _ in Task { await self.forget(id) } }
        return stream
    }

    private func forget(_ id: UUID) {
        self.watchers[id] = nil
    }

    private func publish(_ change: (inout SyncStatus) -> Void) {
        change(&self.status)
        self.status.needsAttention = self.status.consecutiveFailures >= self.policy.attentionAfter
        for watcher in self.watchers.values { watcher.yield(self.status) }
    }

    /// Something new was recorded: counted at once, and sent soon if `run` is going.
    func recorded() async {
        let pending = await self.outbox.count
        self.publish { $0.pending = pending }
        self.woken.newItems = true
        if !self.waitIsBackoff { self.wait?.cancel() }
    }

    /// The person signed in again: sending may resume.
    func signedIn() {
        self.publish { $0.signedOut = false }
        self.retryNow()
    }

    /// Sends everything waiting, once; throws what stopped it. Calls made while a pass runs join it.
    func sync() async throws {
        if let pass { return try await pass.value }
        let pass = Task { try await self.drain() }
        self.pass = pass
        defer { self.pass = nil }
        try await pass.value
    }

    /// Keeps the outbox flowing until `stop`: a pass whenever something is recorded (or every `idle`), and
    /// after a failure the policy's backoff, cut short by `retryNow`.
    func start(idle: Duration = .seconds(60)) {
        guard self.loop == nil else { return }
        self.loop = Task {
            while !Task.isCancelled {
                var delay = idle
                var backoff = false
                do {
                    try await self.sync()
                } catch FitCircleError.notSignedIn, FitCircleError.sessionEnded {
                    // Nothing to send until the person signs in again (which calls `signedIn`).
                } catch {
                    delay = self.policy.backoff(
                        afterFailures: self.status.consecutiveFailures,
                        retryAfter: error.fitCircleProblem?.retryAfter
                    )
                    backoff = true
                }
                await self.pause(delay, backoff: backoff)
            }
        }
    }

    func stop() {
        self.loop?.cancel()
        self.loop = nil
        self.wait?.cancel()
    }

    /// Ends the current wait, whether for the backoff or for new items (or the next one, if none is on).
    func retryNow() {
        self.woken.retry = true
        self.wait?.cancel()
    }

    private func pause(_ delay: Duration, backoff: Bool) async {
        let woken = self.woken
        self.woken = (false, false)
        if woken.retry || (woken.newItems && !backoff) { return }
        let wait = Task { _ = try? await Task.sleep(for: delay) }
        (self.wait, self.waitIsBackoff) = (wait, backoff)
        await wait.value
        (self.wait, self.waitIsBackoff) = (nil, false)
    }

    private func drain() async throws {
        self.publish { $0.isSyncing = true }
        do {
            while true {
                let items = await self.outbox.next(self.policy.batchSize)
                guard let first = items.first else { break }
                if first.kind == .activity {
                    try await self.send(Array(items.prefix { $0.kind == .activity }))
                } else {
                    try await self.sendAlone(first)
                }
                let (pending, rejected) = (await self.outbox.count, await self.outbox.rejections.count)
                self.publish {
                    $0.pending = pending
                    $0.rejected = rejected
                    $0.lastSuccess = self.now()
                    $0.lastError = nil
                    $0.consecutiveFailures = 0
                }
            }
            self.publish {
                $0.isSyncing = false
                $0.lastSuccess = self.now()
                $0.consecutiveFailures = 0
                $0.lastError = nil
            }
        } catch {
            self.publish {
                $0.isSyncing = false
                $0.lastError = "\(error)"
                switch error {
                case FitCircleError.notSignedIn, FitCircleError.sessionEnded: $0.signedOut = true
                default: $0.consecutiveFailures += 1
                }
            }
            throw error
        }
    }

    /// A run of activities in one batch. The server answers each item: created or replayed leave the outbox,
    /// rejected ones leave it as rejections. A batch the server refuses whole (a malformed item can make
    /// the request itself invalid) is split, down to the one item at fault.
    private func send(_ activities: [OutboxItem]) async throws {
        do {
            let results = try await self.sender.sendActivities(activities)
            try await self.outbox.accept(results.accepted)
            for (id, problem) in results.rejected { try await self.outbox.reject(id, problem) }
        } catch let problem as FitCircleProblem where problem.refusesTheRequest {
            guard activities.count > 1 else {
                try await self.outbox.reject(activities[0].id, problem)
                return
            }
            let half = activities.count / 2
            try await self.send(Array(activities[..<half]))
            try await self.send(Array(activities[half...]))
        }
    }

    private func sendAlone(_ item: OutboxItem) async throws {
        do {
            try await self.sender.send(item)
            try await self.outbox.accept([item.id])
        } catch let problem as FitCircleProblem where problem.refusesTheRequest {
            try await self.outbox.reject(item.id, problem)
        }
    }
}
