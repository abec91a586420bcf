public import Foundation

/// One try to hand a notification to a provider for one target, as the delivery log keeps it.
public struct DeliveryAttemptRecord: Equatable, Sendable {
    public var id: String
    public var notification: NotificationRecord.ID
    public var channel: NotificationChannel
    /// The device id, the email address or `webhook`.
    public var target: String
    public var provider: String
    /// 1 for the first try of this target, then 2, 3…
    public var attempt: Int
    /// `DeliveryOutcome.name`: delivered, retryable, permanent, target_dead, target_suspect.
    public var outcome: String
    public var reason: String?
    public var status: Int?
    public var latencyMilliseconds: Int
    public var attemptedAt: Date

    public init(
        id: String,
        notification: NotificationRecord.ID,
        channel: NotificationChannel,
        target: String,
        provider: String,
        attempt: Int,
        outcome: String,
        reason: String?,
        status: Int?,
        latencyMilliseconds: Int,
        attemptedAt: Date
    ) {
        self.id = id
        self.notification = notification
        self.channel = channel
        self.target = target
        self.provider = provider
        self.attempt = attempt
        self.outcome = outcome
        self.reason = reason
        self.status = status
        self.latencyMilliseconds = latencyMilliseconds
        self.attemptedAt = attemptedAt
    }

    /// Whether this target is done with: delivered, or never to be tried again for this notification.
    public var settles: Bool { self.outcome != "retryable" }
}

/// One row of the delivery log: an attempt, and whose notification of which type it was.
public struct DeliveryLogEntry: Equatable, Sendable {
    public var attempt: DeliveryAttemptRecord
    public var notificationType: String
    public var user: User.ID

    public init(
        attempt: DeliveryAttemptRecord,
        notificationType: String,
        user: User.ID
    ) {
        self.attempt = attempt
        self.notificationType = notificationType
        self.user = user
    }
}
