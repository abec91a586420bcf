/// Hands an email to a provider: an SMTP server or an HTTP email API, whichever is configured.
public protocol EmailTransport: Sendable {
    /// The attempt's outcome, as the provider's answer says.
    func send(_ message: EmailMessage) async -> DeliveryAttempt
}
