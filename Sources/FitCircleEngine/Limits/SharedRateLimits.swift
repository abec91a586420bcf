public import FitCircleCore
public import FitCircleStore
import Foundation

/// Rate limits that every node counts together, kept in the database: the ones an attacker would spread
/// over nodes (sign-ins and refreshes per address, joins by code and invitations per user). The broad
/// per-address and per-user budgets stay in each node's memory (`RateLimiter`): they are about load.
public struct SharedRateLimits: Sendable {
    let store: Store
    let clock: WallClock

    public init(store: Store, clock: WallClock) {
        self.store = store
        self.clock = clock
    }

    /// Decides one request of `key` under `limit`, in a transaction that holds the key's row, so that
    /// requests of one key on any node take turns.
    public func decide(_ key: String, _ limit: RateLimit) async throws -> RateLimit.Decision {
        let now = self.clock.now()
        let key = "\(limit.name):\(key)"
        return try await self.store.transaction { tx in
            let decision = limit.decide(at: now, arrival: try await tx.rateLimits.lockedArrival(key, now: now))
            if decision.allowed { try await tx.rateLimits.setArrival(decision.arrival, of: key) }
            return decision
        }
    }

    /// Forgets keys whose quota is whole again (they carry nothing), a batch per transaction.
    public func purgeRested() async throws -> Int {
        let now = self.clock.now()
        return try await Housekeeping.inBatches(on: self.store) { tx, limit in
            try await tx.rateLimits.purge(restedBy: now, limit: limit)
        }
    }
}
