public import FitCircleCore

/// One try to hand a message to a provider for one target: the classified outcome, the provider's own
/// status (HTTP status or SMTP reply code) and how long the provider took.
public struct DeliveryAttempt: Equatable, Sendable {
    /// `apns`, `fcm`, `smtp`, `email_api` or `webhook`.
    public var provider: String
    public var outcome: DeliveryOutcome
    public var status: Int?
    public var latencyMilliseconds: Int

    public init(provider: String, outcome: DeliveryOutcome, status: Int?, latencyMilliseconds: Int) {
        self.provider = provider
        self.outcome = outcome
        self.status = status
        self.latencyMilliseconds = latencyMilliseconds
    }
}

extension Duration {
    /// Whole milliseconds, as attempts log a provider's latency.
    var wholeMilliseconds: Int {
        Int(self.components.seconds * 1_000 + self.components.attoseconds / 1_000_000_000_000_000)
    }
}
