public import Foundation

/// How long a failed job waits before its next attempt: exponential, capped, with jitter so that jobs
/// that failed together (a provider outage) do not all come back in the same second.
public struct Backoff: Equatable, Sendable {
    public var base: TimeInterval
    public var factor: Double
    public var maximum: TimeInterval
    /// ±share of the delay, drawn at random.
    public var jitter: Double

    public init(base: TimeInterval = 30, factor: Double = 2, maximum: TimeInterval = 3_600, jitter: Double = 0.2) {
        self.base = base
        self.factor = factor
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The wait after `attempts` failed attempts; `random` in 0…1 places it in the jitter band.
    public func delay(afterAttempt attempts: Int, random: Double) -> TimeInterval {
        let plain = min(self.maximum, self.base * pow(self.factor, Double(max(0, attempts - 1))))
        return plain * (1 + self.jitter * (2 * random - 1))
    }
}
