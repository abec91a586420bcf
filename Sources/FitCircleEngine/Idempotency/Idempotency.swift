import Crypto
public import FitCircleCore
public import FitCircleStore
public import Foundation

/// `Idempotency-Key` semantics for every POST: the same key with the same request returns the first
/// response again; the same key with another request is refused. Keys are kept at least 24 hours.
public struct Idempotency: Sendable {
    let store: Store
    let clock: WallClock

    /// How long a key is remembered.
    public static let retention: TimeInterval = 24 * 3600
    /// A claim whose request has not finished after this long was abandoned (its server died): a retry may run.
    public static let abandonment: TimeInterval = 60

    public init(store: Store, clock: WallClock) {
        self.store = store
        self.clock = clock
    }

    /// What to do with a request that carries a key.
    public enum Claim: Equatable, Sendable {
        /// The key is new: run the request, then `complete` (or `release` on a server fault).
        case proceed
        /// The same request ran before: answer with its response.
        case replay(statusCode: Int, contentType: String?, body: Data)
    }

    public func claim(_ key: String, for user: User.ID, request: Data) async throws -> Claim {
        guard (1...255).contains(key.count), key.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw ValidationError(field: "Idempotency-Key", reason: "must be 1–255 visible ASCII characters")
        }
        let hash = SHA256.hash(data: request).map { String(format: "%02x", $0) }.joined()
        let now = self.clock.now()
        let previous = try await self.store.transaction { tx in
            try await tx.idempotency.claim(
                key,
                of: user,
                hash: hash,
                at: now,
                expiredBefore: now.addingTimeInterval(-Self.retention),
                abandonedBefore: now.addingTimeInterval(-Self.abandonment)
            )
        }
        guard let previous else { return .proceed }
        guard previous.requestHash == hash else {
            throw ValidationError(field: "Idempotency-Key", reason: "was already used for a different request")
        }
        guard let status = previous.statusCode else {
            throw DomainError.conflict(
                reason: "A request with this Idempotency-Key is still being processed; retry shortly."
            )
        }
        return .replay(statusCode: status, contentType: previous.contentType, body: previous.body ?? Data())
    }

    public func complete(_ key: String, for user: User.ID, statusCode: Int, contentType: String?, body: Data)
        async throws
    {
        try await self.store.transaction { tx in
            try await tx.idempotency.complete(
                key,
                of: user,
                statusCode: statusCode,
                contentType: contentType,
                body: body
            )
        }
    }

    /// Forgets keys past their retention, a batch per transaction (`Housekeeping`); answers how many.
    public func purgeExpired() async throws -> Int {
        let before = self.clock.now().addingTimeInterval(-Self.retention)
        return try await Housekeeping.inBatches(on: self.store) { tx, limit in
            try await tx.idempotency.purge(createdBefore: before, limit: limit)
        }
    }

    public func release(_ key: String, for user: User.ID) async throws {
        try await self.store.transaction { tx in try await tx.idempotency.release(key, of: user) }
    }
}
