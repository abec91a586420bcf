import AsyncHTTPClient
public import Configuration
public import FitCircleCore
public import FitCircleDelivery
public import Foundation

/// The providers notifications go out through, and what emails say of their sender (`delivery.*`,
/// `email.*`, `webhooks.allowPrivateTargets`). A provider left unset is a channel that is off.
public struct DeliverySettings: Sendable {
    public struct APNs: Sendable {
        /// The `.p8` key file.
        public var keyFile: String
        public var keyID: String
        public var teamID: String
        /// The app's bundle id.
        public var topic: String
        public var productionURL: String
        public var sandboxURL: String
    }

    public struct FCM: Sendable {
        /// The service account's key file.
        public var serviceAccountFile: String
        public var baseURL: String
    }

    public var apns: APNs?
    public var fcm: FCM?
    /// The webhook channel: its URL and the secret it is signed with.
    public var webhook: (url: String, secret: String)?
    public var smtp: SMTPTransport.Settings?
    public var emailAPIKey: String?
    public var emailAPIURL: String
    public var email: EmailSettings
    /// Operators' webhook endpoints may point at this machine or a private network.
    public var allowPrivateWebhookTargets: Bool

    public init(email: EmailSettings) {
        self.email = email
        self.emailAPIURL = "https://api.resend.com"
        self.allowPrivateWebhookTargets = false
    }

    /// - `delivery.apns.key` (the `.p8` key file; none: iOS push off), `delivery.apns.keyId`,
    ///   `delivery.apns.teamId`, `delivery.apns.topic` (the app's bundle id; all three required with a key),
    ///   `delivery.apns.productionUrl` (default `https://api.push.apple.com`),
    ///   `delivery.apns.sandboxUrl` (default `https://api.sandbox.push.apple.com`)
    /// - `delivery.fcm.serviceAccount` (a service-account key file; none: Android and web push off),
    ///   `delivery.fcm.baseUrl` (default `https://fcm.googleapis.com`)
    /// - `delivery.webhook.url`, `delivery.webhook.secret` (≥ 32 bytes; no URL: no webhook)
    /// - `delivery.smtp.host` (none: no SMTP), `delivery.smtp.port` (default 587), `delivery.smtp.security`
    ///   (`starttls`, `tls` or `none`; default `starttls`), `delivery.smtp.username`, `delivery.smtp.password`
    /// - `delivery.emailApi.key` (none: no email API), `delivery.emailApi.url` (default `https://api.resend.com`)
    /// - `email.from` (default `FitCircle <noreply@localhost>`), `email.unsubscribeMailbox` (default
    ///   `unsubscribe@` the sender's domain), `email.preferencesUrl` (default `fitcircle://settings/notifications`)
    /// - `webhooks.allowPrivateTargets` (default false: an operator's webhook endpoint may not point at this
    ///   machine, a private network or a link-local address such as the cloud metadata service)
    ///
    /// `publicURL` is this server as links in emails reach it (`server.publicUrl`).
    public init(reader: ConfigReader, publicURL: String) throws {
        let from = reader.string(forKey: "email.from", default: "FitCircle <noreply@localhost>")
        guard let sender = Mailbox(parsing: from) else {
            throw InvalidSetting(key: "email.from", expected: "an address, or Name <address>", found: from)
        }
        self.init(
            email: EmailSettings(
                from: sender,
                publicURL: publicURL,
                unsubscribeMailbox: reader.string(forKey: "email.unsubscribeMailbox"),
                preferencesURL: reader.string(
                    forKey: "email.preferencesUrl",
                    default: "fitcircle://settings/notifications"
                )
            )
        )
        if let keyFile = reader.string(forKey: "delivery.apns.key") {
            func required(_ key: String) throws -> String {
                guard let value = reader.string(forKey: ConfigKey(key)), !value.isEmpty else {
                    throw InvalidSetting(key: key, expected: "a value, since delivery.apns.key is set", found: "")
                }
                return value
            }
            self.apns = APNs(
                keyFile: keyFile,
                keyID: try required("delivery.apns.keyId"),
                teamID: try required("delivery.apns.teamId"),
                topic: try required("delivery.apns.topic"),
                productionURL: reader.string(
                    forKey: "delivery.apns.productionUrl",
                    default: "https://api.push.apple.com"
                ),
                sandboxURL: reader.string(
                    forKey: "delivery.apns.sandboxUrl",
                    default: "https://api.sandbox.push.apple.com"
                )
            )
        }
        if let account = reader.string(forKey: "delivery.fcm.serviceAccount") {
            self.fcm = FCM(
                serviceAccountFile: account,
                baseURL: reader.string(forKey: "delivery.fcm.baseUrl", default: "https://fcm.googleapis.com")
            )
        }
        if let url = reader.string(forKey: "delivery.webhook.url") {
            let secret = reader.string(forKey: "delivery.webhook.secret", isSecret: true) ?? ""
            guard secret.utf8.count >= 32 else {
                throw InvalidSetting(
                    key: "delivery.webhook.secret",
                    expected: "a secret of at least 32 bytes",
                    found: "\(secret.utf8.count) bytes"
                )
            }
            self.webhook = (url, secret)
        }
        if let host = reader.string(forKey: "delivery.smtp.host") {
            let security = reader.string(forKey: "delivery.smtp.security", default: "starttls")
            guard let mode = SMTPTransport.Security(rawValue: security) else {
                throw InvalidSetting(key: "delivery.smtp.security", expected: "starttls, tls or none", found: security)
            }
            self.smtp = SMTPTransport.Settings(
                host: host,
                port: reader.int(forKey: "delivery.smtp.port", default: 587),
                security: mode,
                username: reader.string(forKey: "delivery.smtp.username"),
                password: reader.string(forKey: "delivery.smtp.password", isSecret: true),
                // EHLO names this server, as the world knows it.
                clientName: URL(string: publicURL)?.host ?? "localhost"
            )
        }
        self.emailAPIKey = reader.string(forKey: "delivery.emailApi.key", isSecret: true)
        self.emailAPIURL = reader.string(forKey: "delivery.emailApi.url", default: "https://api.resend.com")
        if self.smtp != nil, self.emailAPIKey != nil {
            throw InvalidSetting(
                key: "delivery.emailApi.key",
                expected: "no email API when delivery.smtp.host is set (one email transport)",
                found: "a key"
            )
        }
        self.allowPrivateWebhookTargets = reader.bool(forKey: "webhooks.allowPrivateTargets", default: false)
    }
}

extension Transports {
    /// The transports `delivery` and `analytics` configure (`missing` says which channels are off).
    public init(delivery: DeliverySettings, analytics: AnalyticsSettings, clock: WallClock) async throws {
        self.init()
        if let apns = delivery.apns {
            let key = try String(contentsOf: URL(fileURLWithPath: apns.keyFile), encoding: .utf8)
            self.apns = try await APNsTransport(
                credentials: APNsCredentials(
                    privateKey: key,
                    keyID: apns.keyID,
                    teamID: apns.teamID,
                    topic: apns.topic
                ),
                productionURL: apns.productionURL,
                sandboxURL: apns.sandboxURL,
                http: .shared,
                clock: clock
            )
        }
        if let fcm = delivery.fcm {
            let account = try FCMServiceAccount(json: Data(contentsOf: URL(fileURLWithPath: fcm.serviceAccountFile)))
            self.fcm = try await FCMTransport(account: account, baseURL: fcm.baseURL, http: .shared, clock: clock)
        }
        if let webhook = delivery.webhook {
            self.webhook = WebhookTransport(
                url: webhook.url,
                secret: Data(webhook.secret.utf8),
                http: .endpoints,
                clock: clock
            )
        }
        self.webhookSender = WebhookSender(
            http: .endpoints,
            clock: clock,
            allowPrivateTargets: delivery.allowPrivateWebhookTargets
        )
        if let url = analytics.forwardURL {
            self.analytics = AnalyticsForwardTransport(
                url: url,
                writeKey: analytics.writeKey ?? "",
                http: .endpoints,
                clock: clock
            )
        }
        if let smtp = delivery.smtp {
            self.email = EmailChannel(
                transport: try SMTPTransport(settings: smtp, clock: clock),
                settings: delivery.email
            )
        } else if let key = delivery.emailAPIKey {
            self.email = EmailChannel(
                transport: EmailAPITransport(baseURL: delivery.emailAPIURL, apiKey: key, http: .shared, clock: clock),
                settings: delivery.email
            )
        }
    }
}

extension Mailbox {
    /// `Name <address>` or a bare address.
    public init?(parsing text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let open = text.lastIndex(of: "<"), text.hasSuffix(">") {
            let address = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
            let name = text[..<open].trimmingCharacters(in: CharacterSet(charactersIn: " \""))
            guard address.contains("@") else { return nil }
            self.init(address, name: name.isEmpty ? nil : name)
        } else if text.contains("@") && !text.contains(" ") {
            self.init(text)
        } else {
            return nil
        }
    }
}
