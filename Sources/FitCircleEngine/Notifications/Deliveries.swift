public import FitCircleCore
public import FitCircleDelivery
public import FitCircleJobs
public import FitCircleStore
public import Foundation

/// The providers this server hands notifications to; each is optional, and a channel without one is off
/// (the server says so when it starts).
public struct Transports: Sendable {
    public var apns: APNsTransport?
    public var fcm: FCMTransport?
    public var webhook: WebhookTransport?
    public var email: EmailChannel?
    /// Not a notification channel: where analytics events are forwarded (`EventForwarding`).
    public var analytics: AnalyticsForwardTransport?
    /// Not a notification channel: what sends the domain events to the endpoints subscribed (`Webhooks`);
    /// one on the shared HTTP client when absent.
    public var webhookSender: WebhookSender?

    public init(
        apns: APNsTransport? = nil,
        fcm: FCMTransport? = nil,
        webhook: WebhookTransport? = nil,
        email: EmailChannel? = nil,
        analytics: AnalyticsForwardTransport? = nil,
        webhookSender: WebhookSender? = nil
    ) {
        self.apns = apns
        self.fcm = fcm
        self.webhook = webhook
        self.email = email
        self.analytics = analytics
        self.webhookSender = webhookSender
    }

    /// What is off, in words, for the start-up log.
    public var missing: [String] {
        var missing: [String] = []
        if self.email == nil { missing.append("email (SMTP or an email API)") }
        if self.apns == nil { missing.append("APNs (iOS push)") }
        if self.fcm == nil { missing.append("FCM (Android and web push)") }
        if self.webhook == nil { missing.append("the webhook") }
        return missing
    }
}

/// Runs the outbox (`notification.deliver`, one job per notification and channel): one attempt per target
/// (each of the user's active devices, and the webhook when there is one), every attempt logged with the
/// provider's answer, device tokens kept honest, and what the provider says may work later retried (the
/// job: up to 3 more times, with growing waits, never before a `Retry-After`). A retry tries again only the
/// targets still open, so no device gets a message twice. A push that fails for good (no target took it,
/// none will) goes by email instead when its type allows (`emailFallback`) and the user lets email through.
public struct Deliveries: JobOwner {
    let store: Store
    let transports: Transports
    let composer: EmailComposer?
    let catalog: NotificationCatalog
    let ids: IDGenerator
    let clock: WallClock
    let analytics: EventRecorder

    /// A delivery job's tries: the first and up to 3 retries.
    public static let attempts = 4
    /// APNs `BadDeviceToken` this many times in a row deactivates the device (once may be a sandbox mix-up).
    public static let suspectLimit = 2
    /// Devices no delivery reached for this long are deactivated (before the next delivery to their user).
    public static let unusedDeviceLifetime: TimeInterval = 270 * 86_400

    init(
        store: Store,
        transports: Transports,
        composer: EmailComposer?,
        catalog: NotificationCatalog,
        ids: IDGenerator,
        clock: WallClock,
        analytics: EventRecorder
    ) {
        self.analytics = analytics
        self.store = store
        self.transports = transports
        self.composer = composer
        self.catalog = catalog
        self.ids = ids
        self.clock = clock
    }

    public func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        try jobs.register(Notifications.deliver) { job in try await self.deliver(job) }
        try jobs.register(Self.emailInvitation) { job in try await self.emailInvitation(job) }
    }

    /// Someone a notification goes to on one channel.
    enum Target: Sendable {
        case device(PushDevice)
        case webhook
        case email(address: String)
        /// A channel this server has no transport for: logged, never retried.
        case unserved(String, reason: String)

        var name: String {
            switch self {
            case .device(let device): device.id.rawValue
            case .webhook: "webhook"
            case .email(let address): address
            case .unserved(let name, _): name
            }
        }
    }

    func deliver(_ job: JobRecord) async throws {
        let reference = try JSONDecoder().decode(Notifications.Reference.self, from: Data(job.payload.utf8))
        let (user, id) = (User.ID(reference.user), NotificationRecord.ID(reference.notification))
        let channel = reference.channel.flatMap(NotificationChannel.init(rawValue:)) ?? .push
        let cutoff = self.clock.now().addingTimeInterval(-Self.unusedDeviceLifetime)
        let found = try await self.store.transaction {
            tx -> (User, NotificationRecord, [PushDevice], [DeliveryAttemptRecord], unread: Int)? in
            guard let account = try await tx.users.find(user),
                let record = try await tx.notifications.notification(id, of: user)
            else {
                return nil
            }
            _ = try await tx.deliveries.expireDevices(of: user, unusedSince: cutoff)
            return (
                account, record, try await tx.notifications.activeDevices(of: user),
                try await tx.deliveries.deliveryAttempts(of: id),
                try await tx.notifications.unreadCount(of: user)
            )
        }
        guard let (account, record, devices, earlier, unread) = found, record.status == .sent else { return }
        let settled = Set(earlier.filter { $0.channel == channel && $0.settles }.map(\.target))
        let tries = Dictionary(grouping: earlier.filter { $0.channel == channel }, by: \.target).mapValues(\.count)
        var tried: [(Target, DeliveryAttempt)] = []
        var email: EmailComposer.Composed?
        for target in self.targets(of: channel, devices: devices, account: account) where !settled.contains(target.name)
        {
            if case .email = target, let composer = self.composer { email = composer.compose(record, to: account) }
            tried.append(
                (
                    target,
                    await self.send(
                        record,
                        of: user,
                        to: target,
                        devices: devices,
                        badge: unread,
                        email: email?.message
                    )
                )
            )
        }
        let (now, results, composed) = (self.clock.now(), tried, email)
        let retryable = results.compactMap { _, attempt -> (reason: String, after: TimeInterval?)? in
            guard case .retryable(let reason, let after) = attempt.outcome else { return nil }
            return (reason, after)
        }
        // Push failed for good: nothing took it, and nothing will be tried again (settled, or the last try).
        let delivered =
            earlier.contains { $0.channel == channel && $0.outcome == "delivered" }
            || results.contains { $0.1.outcome.isDelivered }
        let fallsBack = channel == .push && !delivered && (retryable.isEmpty || job.attempts >= job.maxAttempts)
        let handedToEmail = try await self.store.transaction { tx -> Bool in
            for (target, attempt) in results {
                try await tx.deliveries.insert(
                    DeliveryAttemptRecord(
                        id: self.ids.make(DeliveryAttemptRecord.self).rawValue,
                        notification: id,
                        channel: channel,
                        target: target.name,
                        provider: attempt.provider,
                        attempt: (tries[target.name] ?? 0) + 1,
                        outcome: attempt.outcome.name,
                        reason: attempt.outcome.reason,
                        status: attempt.status,
                        latencyMilliseconds: attempt.latencyMilliseconds,
                        attemptedAt: now
                    )
                )
                guard case .device(let device) = target else { continue }
                switch attempt.outcome {
                case .delivered: try await tx.deliveries.deviceReached(device.id, at: now)
                case .targetDead(let reason): try await tx.deliveries.deactivateDevice(device.id, reason: reason)
                case .targetSuspect(let reason):
                    if try await tx.deliveries.suspectDevice(device.id) >= Self.suspectLimit {
                        try await tx.deliveries.deactivateDevice(device.id, reason: reason)
                    }
                case .retryable, .permanent: break
                }
            }
            // Analytics: the channel's first delivery, or its failure for good (an email that bounced).
            let properties: [String: EventValue] = [
                "notificationId": .string(id.rawValue), "type": .string(record.type),
                "channel": .string(channel.rawValue),
            ]
            if delivered, !earlier.contains(where: { $0.channel == channel && $0.outcome == "delivered" }) {
                try await self.analytics.record(
                    .notificationDelivered,
                    key: "\(id.rawValue):\(channel.rawValue)",
                    of: account,
                    at: now,
                    properties: properties,
                    in: tx
                )
            } else if !delivered, retryable.isEmpty || job.attempts >= job.maxAttempts, !results.isEmpty {
                try await self.analytics.record(
                    .notificationFailed,
                    key: "\(id.rawValue):\(channel.rawValue)",
                    of: account,
                    at: now,
                    properties: properties,
                    in: tx
                )
            }
            if let composed {
                try await tx.deliveries.insert(
                    EmailLogEntry(
                        notification: id,
                        user: user,
                        type: record.type,
                        address: account.email,
                        subject: composed.message.subject,
                        messageID: composed.message.messageID,
                        links: composed.links,
                        createdAt: now
                    )
                )
            }
            guard fallsBack, try await self.fallsBackToEmail(record, of: account, in: tx) else { return false }
            try await tx.enqueue(
                [try Notifications.deliveryJob(of: id, to: user, on: .email, at: now, ids: self.ids)],
                at: now
            )
            return true
        }
        // What may succeed later is tried again, unless email took the notification over.
        if !retryable.isEmpty && !handedToEmail {
            throw RetryLater(
                reason: retryable.map(\.reason).joined(separator: "; "),
                after: retryable.compactMap(\.after).max()
            )
        }
    }

    /// The notifications' delivery attempts, oldest first (their owner's check is the caller's: the records
    /// come from `Notifications`).
    public func attempts(of notifications: [NotificationRecord.ID]) async throws -> [NotificationRecord.ID:
        [DeliveryAttemptRecord]]
    {
        try await self.store.read { tx in try await tx.deliveries.deliveryAttempts(of: notifications) }
    }

    /// Whether a push that failed for good goes by email: the type allows it, email did not go already, the
    /// user lets this type through by email and has an address, and this server sends email.
    private func fallsBackToEmail(_ record: NotificationRecord, of account: User, in tx: Transaction) async throws
        -> Bool
    {
        guard let kind = self.catalog[record.type], kind.emailFallback, !record.channels.contains(.email),
            self.transports.email != nil,
            !account.email.hasSuffix(".invalid")
        else { return false }
        let preferences = try await tx.notifications.preferences(of: account.id) ?? .defaults
        return preferences.delivers(kind, on: .email)
    }

    private func targets(of channel: NotificationChannel, devices: [PushDevice], account: User) -> [Target] {
        switch channel {
        case .push:
            let devices: [Target] = devices.map { device in
                switch device.platform {
                case .ios:
                    self.transports.apns == nil
                        ? .unserved(device.id.rawValue, reason: "APNs is not configured") : .device(device)
                case .android, .web:
                    self.transports.fcm == nil
                        ? .unserved(device.id.rawValue, reason: "FCM is not configured") : .device(device)
                }
            }
            return devices + (self.transports.webhook == nil ? [] : [.webhook])
        case .email:
            return self.transports.email == nil
                ? [.unserved("email", reason: "email is not configured")] : [.email(address: account.email)]
        case .inApp: return []
        }
    }

    /// A push is worth showing for a day; after that the provider drops it rather than deliver it late.
    static let pushLifetime: TimeInterval = 86_400

    private func send(
        _ record: NotificationRecord,
        of user: User.ID,
        to target: Target,
        devices: [PushDevice],
        badge: Int,
        email: EmailMessage?
    ) async -> DeliveryAttempt {
        switch target {
        case .device(let device):
            let message = PushMessage(
                title: record.title,
                body: record.body,
                type: record.type,
                deepLink: record.deepLink,
                notificationID: record.id.rawValue,
                about: record.about,
                badge: badge,
                collapseID: record.type,
                expiresAt: (record.deliverAt ?? record.decidedAt).addingTimeInterval(Self.pushLifetime)
            )
            // Targets are only devices whose platform has a transport (`targets`).
            switch device.platform {
            case .ios:
                guard let apns = self.transports.apns else { return Self.unserved("no APNs transport is configured") }
                return await apns.send(message, to: device.token, in: device.environment)
            case .android, .web:
                guard let fcm = self.transports.fcm else { return Self.unserved("no FCM transport is configured") }
                return await fcm.send(message, to: device.token)
            }
        case .webhook:
            guard let webhook = self.transports.webhook else { return Self.unserved("no webhook is configured") }
            let body = (try? JSONEncoder().encode(WebhookNotification(record, of: user, devices: devices))) ?? Data()
            return await webhook.send(body)
        case .email:
            // `deliver` composes the message for an email target (`targets` names one only with a channel).
            guard let channel = self.transports.email, let email else {
                return Self.unserved("no email transport or message")
            }
            return await channel.transport.send(email)
        case .unserved(_, let reason):
            return Self.unserved(reason)
        }
    }

}

/// What the webhook receives: the notification, and the user's active devices for apps that push themselves.
struct WebhookNotification: Encodable {
    struct Device: Encodable {
        var platform: String
        var token: String
        var environment: String
    }
    var id: String
    var userId: String
    var type: String
    var title: String
    var body: String
    var deepLink: String?
    var data: [String: String]
    var critical: Bool
    var decidedAt: Date
    var devices: [Device]

    init(_ record: NotificationRecord, of user: User.ID, devices: [PushDevice]) {
        self.id = record.id.rawValue
        self.userId = user.rawValue
        self.type = record.type
        self.title = record.title
        self.body = record.body
        self.deepLink = record.deepLink
        self.data = record.data
        self.critical = record.critical
        self.decidedAt = record.decidedAt
        self.devices = devices.map {
            Device(platform: $0.platform.rawValue, token: $0.token, environment: $0.environment.rawValue)
        }
    }
}

extension Deliveries {
    /// An attempt that could not be made: no transport serves the target. Permanent: retrying changes nothing.
    static func unserved(_ reason: String) -> DeliveryAttempt {
        DeliveryAttempt(provider: "none", outcome: .permanent(reason: reason), status: nil, latencyMilliseconds: 0)
    }
}
