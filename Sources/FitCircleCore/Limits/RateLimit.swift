public import Foundation

/// A rate limit as the generic cell rate algorithm keeps it: `quota` requests per `window`, spaced out,
/// with the whole quota available at once after a quiet window. One instant per key is all the state
/// (the "theoretical arrival time"), so a node keeps millions cheaply.
public struct RateLimit: Equatable, Sendable {
    public var name: String
    public var quota: Int
    public var window: TimeInterval

    public init(name: String, quota: Int, window: TimeInterval) {
        precondition(quota > 0 && window > 0)
        self.name = name
        self.quota = quota
        self.window = window
    }

    /// What one request meets.
    public struct Decision: Equatable, Sendable {
        public var allowed: Bool
        /// Requests still allowed right now after this one.
        public var remaining: Int
        /// Seconds until the quota is whole again (allowed), or until a request may succeed (refused).
        public var resetSeconds: Int
        /// The key's state to keep (unchanged when refused).
        public var arrival: Date
    }

    /// Decides a request at `now` for a key whose kept state is `arrival` (nil: never seen).
    public func decide(at now: Date, arrival: Date?) -> Decision {
        let interval = self.window / Double(self.quota)
        let start = max(arrival ?? now, now)
        let next = start.addingTimeInterval(interval)
        let earliest = next.addingTimeInterval(-self.window)
        if now < earliest {
            return Decision(
                allowed: false,
                remaining: 0,
                resetSeconds: max(1, Int(earliest.timeIntervalSince(now).rounded(.up))),
                arrival: arrival ?? now
            )
        }
        let used = next.timeIntervalSince(now)
        let remaining = max(0, Int(((self.window - used) / interval).rounded(.down)))
        return Decision(
            allowed: true,
            remaining: remaining,
            resetSeconds: max(0, Int(used.rounded(.up))),
            arrival: next
        )
    }

    /// `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers): the quota and its window.
    public var policyHeader: String { "\"\(self.name)\";q=\(self.quota);w=\(Int(self.window))" }

    /// `RateLimit`: what is left now and when it is whole again.
    public func header(_ decision: Decision) -> String {
        "\"\(self.name)\";r=\(decision.remaining);t=\(decision.resetSeconds)"
    }
}
