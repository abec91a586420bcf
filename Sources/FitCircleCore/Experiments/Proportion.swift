public import Foundation

/// `successes` out of `trials`, with what can be said of the share behind it.
public struct Proportion: Equatable, Sendable, Codable {
    public var successes: Int
    public var trials: Int
    /// Set when the trials come from fewer people, several each (goal-days, missed periods).
    public var pooling: Pooling?

    /// How many people the trials came from, and the share's variance estimated over them.
    public struct Pooling: Equatable, Sendable, Codable {
        public var people: Int
        public var variance: Double
    }

    public init(_ successes: Int, of trials: Int) {
        self.successes = successes
        self.trials = trials
    }

    /// The share of all the trials of `people` (each one's successes of trials). One person's trials are
    /// alike — who walks little misses most of their goals — so treating them as independent would make
    /// any difference look significant. The variance of the ratio is the delta method's over people
    /// (Deng et al., "Applying the Delta Method in Metric Analytics", 2018):
    /// Σ(yᵢ − R·nᵢ)² / (k(k − 1)·n̄²) for k people, R the share and n̄ the mean trials per person.
    public init(pooling people: [Proportion]) {
        self.init(people.reduce(0) { $0 + $1.successes }, of: people.reduce(0) { $0 + $1.trials })
        let k = Double(people.count)
        guard people.count > 1, self.trials > 0 else {
            self.pooling = Pooling(people: people.count, variance: 0)
            return
        }
        let share = self.value
        let meanTrials = Double(self.trials) / k
        let residuals = people.reduce(0.0) { sum, person in
            let residual = Double(person.successes) - share * Double(person.trials)
            return sum + residual * residual
        }
        self.pooling = Pooling(people: people.count, variance: residuals / (k * (k - 1) * meanTrials * meanTrials))
    }

    public var value: Double { self.trials == 0 ? 0 : Double(self.successes) / Double(self.trials) }

    /// The share's variance: binomial for independent trials, else the pooling's.
    public var variance: Double {
        guard self.trials > 0 else { return 0 }
        return self.pooling?.variance ?? self.value * (1 - self.value) / Double(self.trials)
    }

    /// At `confidence`: Wilson's score interval, which unlike the textbook ± stays within 0…1 and holds up
    /// for small samples and shares near 0 or 1; for pooled trials, the normal interval of the delta
    /// method's variance.
    public func interval(confidence: Double) -> ClosedRange<Double> {
        guard self.trials > 0 else { return 0...1 }
        let z = Normal.quantile(1 - (1 - confidence) / 2)
        if self.pooling != nil {
            let spread = z * self.variance.squareRoot()
            return max(0, self.value - spread)...min(1, self.value + spread)
        }
        let n = Double(self.trials)
        let p = self.value
        let centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        let spread = z / (1 + z * z / n) * ((p * (1 - p) / n + z * z / (4 * n * n))).squareRoot()
        return max(0, centre - spread)...min(1, centre + spread)
    }

    /// Whether the normal approximation behind the z-test can be trusted: at least 30 trials and 5 of each
    /// outcome, and for pooled trials at least 20 people (the approximation is over people then).
    public var isLargeEnough: Bool {
        self.trials >= 30 && self.successes >= 5 && self.trials - self.successes >= 5
            && (self.pooling?.people ?? 20) >= 20
    }
}

/// The two-proportion z-test with pooled variance, two-sided: is `treatment`'s share different from
/// `control`'s? With the difference's (unpooled) interval at the same confidence. When either share pools
/// several trials per person, the standard error is the two delta-method variances' (a z-test over people).
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
        // Each share's own variance, added: the difference's interval, and the test's error over people.
        let separate = (a.variance + b.variance).squareRoot()
        let standardError: Double
        if a.pooling == nil && b.pooling == nil {
            let pooled = Double(a.successes + b.successes) / (na + nb)
            standardError = (pooled * (1 - pooled) * (1 / na + 1 / nb)).squareRoot()
        } else {
            standardError = separate
        }
        self.z = standardError > 0 ? self.difference / standardError : 0
        self.pValue = standardError > 0 ? min(1, 2 * (1 - Normal.cdf(abs(self.z)))) : 1
        self.interval = max(-1, self.difference - critical * separate)...min(1, self.difference + critical * separate)
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
