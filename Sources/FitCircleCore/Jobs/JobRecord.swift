public import Foundation

/// A row of the durable job queue.
public struct JobRecord: Equatable, Sendable {
    public var id: String
    public var kind: String
    /// JSON, read by the job's handler.
    public var payload: String
    /// Unique: a job with a key already queued (pending, done or failed) is not queued again.
    public var dedupeKey: String
    public var status: Status
    public var runAt: Date
    public var attempts: Int
    public var maxAttempts: Int
    public var leaseOwner: String?
    public var leaseExpiresAt: Date?
    public var lastError: String?

    public enum Status: String, Sendable {
        case pending, done, failed
    }

    public init(id: String, kind: String, payload: String, dedupeKey: String, runAt: Date, maxAttempts: Int) {
        self.id = id
        self.kind = kind
        self.payload = payload
        self.dedupeKey = dedupeKey
        self.status = .pending
        self.runAt = runAt
        self.attempts = 0
        self.maxAttempts = maxAttempts
    }
}
