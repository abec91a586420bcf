public import Foundation

/// What the "pending uploads" indicator shows.
public struct SyncStatus: Sendable, Equatable {
    /// Items recorded on this device that the server has not acknowledged yet.
    public var pending: Int
    public var isSyncing: Bool
    /// When the server last acknowledged items (or had none to take).
    public var lastSuccess: Date?
    /// Why the last attempt failed, if it did.
    public var lastError: String?
    /// Attempts that failed in a row; 0 after a success.
    public var consecutiveFailures: Int
    /// Set after `SyncPolicy.attentionAfter` failures in a row: time to tell the person, and to offer
    /// `FitCircle.retryNow()`.
    public var needsAttention: Bool
    /// Items the server refused for good (see `Outbox.rejections`).
    public var rejected: Int
    /// The session ended: nothing is sent until the person signs in again.
    public var signedOut: Bool

    public init(
        pending: Int = 0,
        isSyncing: Bool = false,
        lastSuccess: Date? = nil,
        lastError: String? = nil,
        consecutiveFailures: Int = 0,
        needsAttention: Bool = false,
        rejected: Int = 0,
        signedOut: Bool = false
    ) {
        self.pending = pending
        self.isSyncing = isSyncing
        self.lastSuccess = lastSuccess
        self.lastError = lastError
        self.consecutiveFailures = consecutiveFailures
        self.needsAttention = needsAttention
        self.rejected = rejected
        self.signedOut = signedOut
    }
}

/// How the outbox is sent.
public struct SyncPolicy: Sendable {
    /// Activities per `POST /api/activities/batch` (the server takes up to 500).
    public var batchSize: Int
    /// The wait after the first failure; it doubles with each further one, up to `maximumBackoff`, with
    /// jitter (a random half of it is taken off) so that devices do not come back in step.
    public var initialBackoff: Duration
    public var maximumBackoff: Duration
    /// Failures in a row after which `SyncStatus.needsAttention` is set.
    public var attentionAfter: Int

    public init(
        batchSize: Int = 500,
        initialBackoff: Duration = .seconds(1),
        maximumBackoff: Duration = .seconds(300),
        attentionAfter: Int = 5
    ) {
        self.batchSize = max(1, min(batchSize, 500))
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.attentionAfter = attentionAfter
    }

    /// The wait before attempt `failures + 1`: exponential, jittered, never shorter than the server asked.
    func backoff(afterFailures failures: Int, retryAfter: Duration?) -> Duration {
        let doubled = self.initialBackoff * (1 << min(max(failures - 1, 0), 20))
        let capped = min(doubled, self.maximumBackoff)
        let jittered = capped * Double.random(in: 0.5...1.0)
        return max(jittered, retryAfter ?? .zero)
    }
}
