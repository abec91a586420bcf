import AsyncHTTPClient
public import Configuration
public import FitCircleCore
public import FitCircleDelivery
public import FitCircleEngine
public import FitCircleStore
public import Foundation

/// Every setting of `fitcircle serve`, read from flags, `FITCIRCLE_*` environment variables, an optional
/// JSON config file and the defaults below, in that order of precedence. README.md lists them in one table.
public struct AppConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var database: DatabaseLocation
    public var sqliteSynchronous: Store.SQLiteSynchronous
    public var maxConnections: Int
    public var databaseDeadlines: Store.Deadlines
    public var profileName: String
    public var profilesDirectory: URL
    public var blobsDirectory: URL
    /// Where uploaded files live: a directory of this node, the database, or an S3-compatible bucket.
    public var blobStore: BlobStoreSetting
    public var auth: AuthConfiguration
    public var googleJWKS: String
    /// The OAuth clients of the web sign-in flows (accepted as audiences too).
    public var googleWebClientID: String?
    public var appleWebClientID: String?
    public var appleJWKS: String
    public var signingKey: Data?
    public var maxBodyBytes: Int
    public var connectionDeadlines: ConnectionDeadlines
    public var limits: RequestLimits
    /// The HTTP side of the node, from the settings above.
    public var node: NodeSettings {
        NodeSettings(
            host: self.host,
            port: self.port,
            maxBodyBytes: self.maxBodyBytes,
            limits: self.limits,
            connectionDeadlines: self.connectionDeadlines,
            web: WebSettings(
                publicURL: self.publicURL,
                googleClientID: self.googleWebClientID,
                appleClientID: self.appleWebClientID
            ),
            metricsToken: self.metricsToken
        )
    }
    /// What `/metrics` asks of a scraper (`metrics.token`); none: only this machine may read it.
    public var metricsToken: String?
    public var logLevel: String
    /// Delivery: APNs's key file, key id, team, topic and hosts; FCM's service-account key file and base
    /// URL; the webhook's URL and secret.
    public var apnsKey: String?
    public var apnsKeyID: String?
    public var apnsTeamID: String?
    public var apnsTopic: String?
    public var apnsProductionURL: String
    public var apnsSandboxURL: String
    public var fcmServiceAccount: String?
    public var fcmBaseURL: String
    public var webhookURL: String?
    public var webhookSecret: String?
    /// Where analytics events are forwarded (Segment's batch format) and the write key; none: not forwarded.
    public var analyticsForwardURL: String?
    /// Operators' webhook endpoints may point at this machine or a private network (`webhooks.allowPrivateTargets`).
    public var webhooksAllowPrivateTargets: Bool
    public var analyticsWriteKey: String?
    /// Email: the SMTP server or the email API (one of them), the sender, and where links lead.
    public var smtp: SMTPTransport.Settings?
    public var emailAPIKey: String?
    public var emailAPIURL: String
    public var emailFrom: Mailbox
    public var publicURL: String
    public var unsubscribeMailbox: String?
    public var preferencesURL: String

    /// - Configuration keys (environment: `FITCIRCLE_` + the key in upper snake case):
    ///   - `host` (default `127.0.0.1`), `port` (default `8080`)
    ///   - `database.url` (default `sqlite://<working directory>/fitcircle.sqlite`)
    ///   - `sqlite.synchronous` (`normal` or `full`, default `normal`), `database.maxConnections` (default 20)
    ///   - `database.connectionWaitSeconds` (default 5), `database.statementSeconds` (default 60; 0: no limit)
    ///   - `profile` (default `fitcircle`), `profiles.directory` (default `./profiles`)
    ///   - `blobs.store` (`disk`, `database` or `s3`; default `disk`), `blobs.directory` (for `disk`, default
    ///     `./fitcircle-blobs`), `blobs.s3.bucket`, `blobs.s3.region` (default `us-east-1`), `blobs.s3.endpoint`
    ///     (default `https://s3.<region>.amazonaws.com`), `blobs.s3.accessKeyId`, `blobs.s3.secretAccessKey`
    ///   - `devLogin` (default `false`; refused unless `host` is loopback or
    ///     `devLogin.dangerouslyAllowOnPublicHost` is `true`)
    ///   - `auth.google.clientIds`, `auth.apple.clientIds` (comma-separated; empty switches the provider off)
    ///   - `auth.google.webClientId`, `auth.apple.webClientId`: the web app's sign-in flows (https only)
    ///   - `auth.google.jwks`, `auth.apple.jwks` (an https URL or a file path; default the provider's URL)
    ///   - `auth.signingKey` (secret, ≥ 32 bytes; default a random key kept in the database)
    ///   - `auth.accessTokenSeconds` (default 900), `auth.refreshTokenDays` (default 30), `auth.sessionDays` (default 90)
    ///   - `http.maxBodyBytes` (default 6 MiB), `http.idleSeconds` (60), `http.requestReadSeconds` (30),
    ///     `http.anonymousRequestReadSeconds` (5: a request without credentials has this long for its body),
    ///     `log.level` (default `info`)
    ///   - `limits.perAddress` (1200 a minute), `limits.perUser` (600), `limits.signIns` (10 per address),
    ///     `limits.refreshes` (30 per address), `limits.joins` (10 per user), `limits.invitations` (30 per
    ///     user), `limits.friendRequests` (30 per user), `limits.searches` (30 per user), `limits.maxInFlight` (512 requests at once on this node, once their bodies have arrived),
    ///     `limits.perAddressBodies` (request bodies one address may be sending at once; default a sixteenth of
    ///     `maxInFlight`, at least 8), `limits.streamsPerUser` (8 open
    ///     event streams), `limits.streamsPerNode` (2000), `limits.trustForwardedFor` (false)
    ///   - `delivery.apns.key` (the `.p8` key file; none: iOS push off), `delivery.apns.keyId`,
    ///     `delivery.apns.teamId`, `delivery.apns.topic` (the app's bundle id; all three required with a key),
    ///     `delivery.apns.productionUrl` (default `https://api.push.apple.com`),
    ///     `delivery.apns.sandboxUrl` (default `https://api.sandbox.push.apple.com`)
    ///   - `delivery.fcm.serviceAccount` (a service-account key file; none: Android and web push off),
    ///     `delivery.fcm.baseUrl` (default `https://fcm.googleapis.com`)
    ///   - `delivery.webhook.url`, `delivery.webhook.secret` (≥ 32 bytes; no URL: no webhook)
    ///   - `metrics.token` (secret, ≥ 16 bytes; none: `/metrics` answers only this machine, loopback and
    ///     not forwarded by a proxy)
    ///   - `webhooks.allowPrivateTargets` (default false: an operator's webhook endpoint may not point at this
    ///     machine, a private network or a link-local address such as the cloud metadata service)
    ///   - `analytics.forward.url` (an HTTP API taking Segment's `/v1/batch` format; none: events stay here),
    ///     `analytics.forward.writeKey` (sent as HTTP Basic's user name)
    ///   - `delivery.smtp.host` (none: no SMTP), `delivery.smtp.port` (default 587), `delivery.smtp.security`
    ///     (`starttls`, `tls` or `none`; default `starttls`), `delivery.smtp.username`, `delivery.smtp.password`
    ///   - `delivery.emailApi.key` (none: no email API), `delivery.emailApi.url` (default `https://api.resend.com`)
    ///   - `email.from` (default `FitCircle <noreply@localhost>`), `email.unsubscribeMailbox` (default
    ///     `unsubscribe@` the sender's domain), `email.preferencesUrl` (default `fitcircle://settings/notifications`)
    ///   - `server.publicUrl` (default `http://<host>:<port>`): this server as links in emails reach it
    public init(reader: ConfigReader, workingDirectory: URL) throws {
        self.host = reader.string(forKey: "host", default: "127.0.0.1")
        self.port = reader.int(forKey: "port", default: 8080)
        let defaultDatabase = "sqlite://" + workingDirectory.appendingPathComponent("fitcircle.sqlite").path
        self.database = try DatabaseLocation(
            url: reader.string(forKey: "database.url", isSecret: true, default: defaultDatabase)
        )
        let synchronous = reader.string(forKey: "sqlite.synchronous", default: "normal")
        guard let mode = Store.SQLiteSynchronous(rawValue: synchronous.uppercased()) else {
            throw InvalidSetting(key: "sqlite.synchronous", expected: "normal or full", found: synchronous)
        }
        self.sqliteSynchronous = mode
        self.maxConnections = reader.int(forKey: "database.maxConnections", default: 20)
        let connectionWait = reader.int(forKey: "database.connectionWaitSeconds", default: 5)
        guard connectionWait > 0 else {
            throw InvalidSetting(
                key: "database.connectionWaitSeconds",
                expected: "a number of seconds above 0",
                found: "\(connectionWait)"
            )
        }
        let statementSeconds = reader.int(forKey: "database.statementSeconds", default: 60)
        guard statementSeconds >= 0 else {
            throw InvalidSetting(
                key: "database.statementSeconds",
                expected: "a number of seconds, or 0 for no limit",
                found: "\(statementSeconds)"
            )
        }
        self.databaseDeadlines = Store.Deadlines(
            connection: .seconds(connectionWait),
            statement: statementSeconds == 0 ? nil : .seconds(statementSeconds)
        )
        self.profileName = reader.string(forKey: "profile", default: "fitcircle")
        self.profilesDirectory = URL(
            fileURLWithPath: reader.string(forKey: "profiles.directory", default: "profiles"),
            relativeTo: workingDirectory
        )
        self.blobsDirectory = URL(
            fileURLWithPath: reader.string(forKey: "blobs.directory", default: "fitcircle-blobs"),
            relativeTo: workingDirectory
        )
        self.blobStore = try BlobStoreSetting(reader: reader, directory: self.blobsDirectory)
        let accessSeconds = reader.int(forKey: "auth.accessTokenSeconds", default: 900)
        let refreshDays = reader.int(forKey: "auth.refreshTokenDays", default: 30)
        let sessionDays = reader.int(forKey: "auth.sessionDays", default: 90)
        for (key, value, most) in [
            ("auth.accessTokenSeconds", accessSeconds, 86_400), ("auth.refreshTokenDays", refreshDays, 3_650),
            ("auth.sessionDays", sessionDays, 3_650),
        ] where !(1...most).contains(value) {
            throw InvalidSetting(key: key, expected: "a whole number from 1 to \(most)", found: "\(value)")
        }
        self.googleWebClientID = reader.string(forKey: "auth.google.webClientId").flatMap { $0.isEmpty ? nil : $0 }
        self.appleWebClientID = reader.string(forKey: "auth.apple.webClientId").flatMap { $0.isEmpty ? nil : $0 }
        self.auth = AuthConfiguration(
            googleClientIDs: Self.list(reader.string(forKey: "auth.google.clientIds")),
            appleClientIDs: Self.list(reader.string(forKey: "auth.apple.clientIds")),
            googleWebClientID: self.googleWebClientID,
            appleWebClientID: self.appleWebClientID,
            devLogin: reader.bool(forKey: "devLogin", default: false),
            accessTokenLifetime: TimeInterval(accessSeconds),
            refreshTokenLifetime: TimeInterval(refreshDays * 86_400),
            sessionLifetime: TimeInterval(sessionDays * 86_400)
        )
        // Dev login lets anyone sign in as anyone: a typo in an environment variable must not open a public host.
        if self.auth.devLogin, !Self.isLoopback(self.host),
            !reader.bool(forKey: "devLogin.dangerouslyAllowOnPublicHost", default: false)
        {
            throw InvalidSetting(
                key: "devLogin",
                expected:
                    "off when listening beyond loopback (or devLogin.dangerouslyAllowOnPublicHost, if anyone may sign in as anyone)",
                found: "on, with host \(self.host)"
            )
        }
        self.googleJWKS = reader.string(
            forKey: "auth.google.jwks",
            default: "https://www.googleapis.com/oauth2/v3/certs"
        )
        self.appleJWKS = reader.string(forKey: "auth.apple.jwks", default: "https://appleid.apple.com/auth/keys")
        self.signingKey = reader.string(forKey: "auth.signingKey", isSecret: true).map { Data($0.utf8) }
        self.maxBodyBytes = reader.int(forKey: "http.maxBodyBytes", default: 6 * 1024 * 1024)
        let idleSeconds = reader.int(forKey: "http.idleSeconds", default: 60)
        let requestReadSeconds = reader.int(forKey: "http.requestReadSeconds", default: 30)
        let anonymousReadSeconds = reader.int(
            forKey: "http.anonymousRequestReadSeconds",
            default: min(5, requestReadSeconds)
        )
        for (key, value) in [
            ("http.idleSeconds", idleSeconds), ("http.requestReadSeconds", requestReadSeconds),
            ("http.anonymousRequestReadSeconds", anonymousReadSeconds),
        ] where !(1...3_600).contains(value) {
            throw InvalidSetting(key: key, expected: "a whole number of seconds from 1 to 3600", found: "\(value)")
        }
        self.connectionDeadlines = ConnectionDeadlines(
            idle: .seconds(idleSeconds),
            requestRead: .seconds(requestReadSeconds),
            anonymousRequestRead: .seconds(anonymousReadSeconds)
        )
        let defaults = RequestLimits.default
        let maxInFlight = reader.int(forKey: "limits.maxInFlight", default: defaults.maxInFlight)
        self.limits = RequestLimits(
            perAddress: reader.int(forKey: "limits.perAddress", default: defaults.perAddress),
            perUser: reader.int(forKey: "limits.perUser", default: defaults.perUser),
            signIns: reader.int(forKey: "limits.signIns", default: defaults.signIns),
            refreshes: reader.int(forKey: "limits.refreshes", default: defaults.refreshes),
            joins: reader.int(forKey: "limits.joins", default: defaults.joins),
            invitations: reader.int(forKey: "limits.invitations", default: defaults.invitations),
            friendRequests: reader.int(forKey: "limits.friendRequests", default: defaults.friendRequests),
            searches: reader.int(forKey: "limits.searches", default: defaults.searches),
            maxInFlight: maxInFlight,
            perAddressBodies: reader.int(
                forKey: "limits.perAddressBodies",
                default: RequestLimits.defaultPerAddressBodies(maxInFlight: maxInFlight)
            ),
            streamsPerUser: reader.int(forKey: "limits.streamsPerUser", default: defaults.streamsPerUser),
            streamsPerNode: reader.int(forKey: "limits.streamsPerNode", default: defaults.streamsPerNode),
            trustForwardedFor: reader.bool(forKey: "limits.trustForwardedFor", default: false)
        )
        for (key, value) in [
            ("limits.perAddress", self.limits.perAddress), ("limits.perUser", self.limits.perUser),
            ("limits.signIns", self.limits.signIns),
            ("limits.refreshes", self.limits.refreshes), ("limits.joins", self.limits.joins),
            ("limits.invitations", self.limits.invitations),
            ("limits.friendRequests", self.limits.friendRequests), ("limits.searches", self.limits.searches),
            ("limits.maxInFlight", self.limits.maxInFlight), ("limits.perAddressBodies", self.limits.perAddressBodies),
            ("limits.streamsPerUser", self.limits.streamsPerUser),
            ("limits.streamsPerNode", self.limits.streamsPerNode),
        ] where value < 1 {
            throw InvalidSetting(key: key, expected: "a whole number of at least 1", found: "\(value)")
        }
        self.logLevel = reader.string(forKey: "log.level", default: "info")
        self.apnsKey = reader.string(forKey: "delivery.apns.key")
        self.apnsKeyID = reader.string(forKey: "delivery.apns.keyId")
        self.apnsTeamID = reader.string(forKey: "delivery.apns.teamId")
        self.apnsTopic = reader.string(forKey: "delivery.apns.topic")
        self.apnsProductionURL = reader.string(
            forKey: "delivery.apns.productionUrl",
            default: "https://api.push.apple.com"
        )
        self.apnsSandboxURL = reader.string(
            forKey: "delivery.apns.sandboxUrl",
            default: "https://api.sandbox.push.apple.com"
        )
        if self.apnsKey != nil {
            for (key, value) in [
                ("delivery.apns.keyId", self.apnsKeyID), ("delivery.apns.teamId", self.apnsTeamID),
                ("delivery.apns.topic", self.apnsTopic),
            ]
            where value?.isEmpty ?? true {
                throw InvalidSetting(key: key, expected: "a value, since delivery.apns.key is set", found: value ?? "")
            }
        }
        self.fcmServiceAccount = reader.string(forKey: "delivery.fcm.serviceAccount")
        self.fcmBaseURL = reader.string(forKey: "delivery.fcm.baseUrl", default: "https://fcm.googleapis.com")
        self.webhookURL = reader.string(forKey: "delivery.webhook.url")
        self.webhookSecret = reader.string(forKey: "delivery.webhook.secret", isSecret: true)
        if self.webhookURL != nil, (self.webhookSecret?.utf8.count ?? 0) < 32 {
            throw InvalidSetting(
                key: "delivery.webhook.secret",
                expected: "a secret of at least 32 bytes",
                found: "\(self.webhookSecret?.utf8.count ?? 0) bytes"
            )
        }
        self.analyticsForwardURL = reader.string(forKey: "analytics.forward.url")
        self.webhooksAllowPrivateTargets = reader.bool(forKey: "webhooks.allowPrivateTargets", default: false)
        self.metricsToken = reader.string(forKey: "metrics.token", isSecret: true)
        if let token = self.metricsToken, token.utf8.count < 16 {
            throw InvalidSetting(
                key: "metrics.token",
                expected: "at least 16 bytes",
                found: "\(token.utf8.count) bytes"
            )
        }
        self.analyticsWriteKey = reader.string(forKey: "analytics.forward.writeKey", isSecret: true)
        if let url = self.analyticsForwardURL, !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
            throw InvalidSetting(key: "analytics.forward.url", expected: "an http or https URL", found: url)
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
                password: reader.string(forKey: "delivery.smtp.password", isSecret: true)
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
        let from = reader.string(forKey: "email.from", default: "FitCircle <noreply@localhost>")
        guard let sender = Self.mailbox(from) else {
            throw InvalidSetting(key: "email.from", expected: "an address, or Name <address>", found: from)
        }
        self.emailFrom = sender
        self.publicURL = reader.string(forKey: "server.publicUrl", default: "http://\(self.host):\(self.port)")
        // EHLO names this server, as the world knows it.
        self.smtp?.clientName = URL(string: self.publicURL)?.host ?? "localhost"
        self.unsubscribeMailbox = reader.string(forKey: "email.unsubscribeMailbox")
        self.preferencesURL = reader.string(
            forKey: "email.preferencesUrl",
            default: "fitcircle://settings/notifications"
        )
    }

    /// `Name <address>` or a bare address.
    static func mailbox(_ text: String) -> Mailbox? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let open = text.lastIndex(of: "<"), text.hasSuffix(">") {
            let address = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
            let name = text[..<open].trimmingCharacters(in: CharacterSet(charactersIn: " \""))
            return address.contains("@") ? Mailbox(address, name: name.isEmpty ? nil : name) : nil
        }
        return text.contains("@") && !text.contains(" ") ? Mailbox(text) : nil
    }

    /// Whether `host` only listens on this machine (127.0.0.0/8, ::1, localhost).
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]"
            || host.hasPrefix("127.") && host.split(separator: ".").count == 4
    }

    private static func list(_ text: String?) -> Set<String> {
        Set((text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }
}

/// A configuration value that cannot be used.
public struct InvalidSetting: Error, CustomStringConvertible {
    public var key: String
    public var expected: String
    public var found: String
    public var description: String {
        "Configuration key '\(self.key)': expected \(self.expected), found '\(self.found)'"
    }
}

extension AppConfiguration {
    /// The delivery transports that are configured (`Transports.missing` says what is off).
    public func transports(clock: WallClock) async throws -> Transports {
        var transports = Transports()
        if let path = self.apnsKey, let keyID = self.apnsKeyID, let teamID = self.apnsTeamID, let topic = self.apnsTopic
        {
            let key = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
            transports.apns = try await APNsTransport(
                credentials: APNsCredentials(privateKey: key, keyID: keyID, teamID: teamID, topic: topic),
                productionURL: self.apnsProductionURL,
                sandboxURL: self.apnsSandboxURL,
                http: .shared,
                clock: clock
            )
        }
        if let path = self.fcmServiceAccount {
            let account = try FCMServiceAccount(json: Data(contentsOf: URL(fileURLWithPath: path)))
            transports.fcm = try await FCMTransport(
                account: account,
                baseURL: self.fcmBaseURL,
                http: .shared,
                clock: clock
            )
        }
        if let url = self.webhookURL, let secret = self.webhookSecret {
            transports.webhook = WebhookTransport(url: url, secret: Data(secret.utf8), http: .shared, clock: clock)
        }
        transports.webhookSender = WebhookSender(
            http: .shared,
            clock: clock,
            allowPrivateTargets: self.webhooksAllowPrivateTargets
        )
        if let url = self.analyticsForwardURL {
            transports.analytics = AnalyticsForwardTransport(
                url: url,
                writeKey: self.analyticsWriteKey ?? "",
                http: .shared,
                clock: clock
            )
        }
        let settings = EmailSettings(
            from: self.emailFrom,
            publicURL: self.publicURL,
            unsubscribeMailbox: self.unsubscribeMailbox,
            preferencesURL: self.preferencesURL
        )
        if let smtp = self.smtp {
            transports.email = EmailChannel(
                transport: try SMTPTransport(settings: smtp, clock: clock),
                settings: settings
            )
        } else if let key = self.emailAPIKey {
            transports.email = EmailChannel(
                transport: EmailAPITransport(baseURL: self.emailAPIURL, apiKey: key, http: .shared, clock: clock),
                settings: settings
            )
        }
        return transports
    }

    /// The key sets of the sign-in providers: an https URL is fetched and cached, anything else is a file path.
    public func jwksSources(now: @escaping @Sendable () -> Date) -> [IdentityProvider: any JWKSSource] {
        func source(_ location: String) -> any JWKSSource {
            location.hasPrefix("https://") || location.hasPrefix("http://")
                ? HTTPJWKSSource(url: location, now: now)
                : FileJWKSSource(path: location)
        }
        return [.google: source(self.googleJWKS), .apple: source(self.appleJWKS)]
    }
}
