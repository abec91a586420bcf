import FitCircleCore
import Foundation
import Synchronization

/// This node's rate-limit state: one instant per key (`RateLimit`'s arrival), at most `capacity` keys.
/// When full, keys whose quota is whole again are forgotten first (they carry no information), then the
/// oldest half — so a flood of new keys (addresses) cannot grow memory without bound.
final class RateLimiter: Sendable {
    private let arrivals = Mutex<[String: Date]>([:])
    let capacity: Int

    init(capacity: Int = 200_000) {
        self.capacity = capacity
    }

    /// Decides one request of `key` under `limit` at `now`, and keeps the result.
    func decide(_ key: String, _ limit: RateLimit, at now: Date) -> RateLimit.Decision {
        self.arrivals.withLock { arrivals in
            let decision = limit.decide(at: now, arrival: arrivals[key])
            if decision.allowed {
                if arrivals.count >= self.capacity, arrivals[key] == nil {
                    Self.evict(&arrivals, now: now, capacity: self.capacity)
                }
                arrivals[key] = decision.arrival
            }
            return decision
        }
    }

    private static func evict(_ arrivals: inout [String: Date], now: Date, capacity: Int) {
        arrivals = arrivals.filter { $0.value > now }
        if arrivals.count * 2 > capacity {
            let kept = arrivals.sorted { $0.value > $1.value }.prefix(arrivals.count / 2)
            arrivals = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
    }
}
