public import Foundation

/// `successes` out of `trials`, with what can be said of the share behind it.
public struct Proportion: Equatable, Sendable, Codable {
    public var successes: Int
    public var trials: Int

    public init(_ successes: Int, of trials: Int) {
        self.successes = successes
        self.trials = trials
    }

    public var value: Double { self.trials == 0 ? 0 : Double(self.successes) / Double(self.trials) }

    /// Wilson's score interval at `confidence`: unlike the textbook ± it stays within 0…1 and holds up for
    /// small samples and shares near 0 or 1.
    public func interval(confidence: Double) -> ClosedRange<Double> {
        guard self.trials > 0 else { return 0...1 }
        let z = Normal.quantile(1 - (1 - confidence) / 2)
        let n = Double(self.trials)
        let p = self.value
        let centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        let spread = z / (1 + z * z / n) * ((p * (1 - p) / n + z * z / (4 * n * n))).squareRoot()
        return max(0, centre - spread)...min(1, centre + spread)
    }

    /// Whether the normal approximation behind the z-test can be trusted: at least 30 trials and 5 of each
    /// outcome.
    public var isLargeEnough: Bool { self.trials >= 30 && self.successes >= 5 && self.trials - self.successes >= 5 }
}

/// The two-proportion z-test with pooled variance, two-sided: is `treatment`'s share different from
/// `control`'s? With the difference's (unpooled) interval at the same confidence.
public struct TwoProportionTest: Equatable, Sendable, Codable {
    public var difference: Double
    public var interval: ClosedRange<Double>
    public var z: Double
    public var pValue: Double
    public var significant: Bool

    public init(_ treatment: Proportion, against control: Proportion, confidence: Double) {
        let (a, b) = (treatment, control)
        self.difference = a.value - b.value
        let critical = Normal.quantile(1 - (1 - confidence) / 2)
        guard a.trials > 0, b.trials > 0 else {
            self.interval = -1...1
            self.z = 0
            self.pValue = 1
            self.significant = false
            return
        }
        let (na, nb) = (Double(a.trials), Double(b.trials))
        let pooled = Double(a.successes + b.successes) / (na + nb)
        let standardError = (pooled * (1 - pooled) * (1 / na + 1 / nb)).squareRoot()
        self.z = standardError > 0 ? self.difference / standardError : 0
        self.pValue = standardError > 0 ? min(1, 2 * (1 - Normal.cdf(abs(self.z)))) : 1
        let unpooled = (a.value * (1 - a.value) / na + b.value * (1 - b.value) / nb).squareRoot()
        self.interval = max(-1, self.difference - critical * unpooled)...min(1, self.difference + critical * unpooled)
        self.significant = self.pValue < 1 - confidence
    }
}

/// The standard normal distribution.
enum Normal {
    static func cdf(_ x: Double) -> Double { 0.5 * erfc(-x / 2.0.squareRoot()) }

    /// The inverse of `cdf` by bisection: exact enough for any confidence an operator asks for.
    static func quantile(_ p: Double) -> Double {
        var (low, high) = (-10.0, 10.0)
        for _ in 0..<100 {
            let middle = (low + high) / 2
            if Self.cdf(middle) < p { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}
