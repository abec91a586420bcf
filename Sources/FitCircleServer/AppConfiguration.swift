public import Configuration
public import FitCircleCore
public import FitCircleEngine
public import FitCircleStore
import AsyncHTTPClient
import FitCircleDelivery
public import Foundation

/// Every setting of `fitcircle serve`, read from flags, `FITCIRCLE_*` environment variables, an optional
/// JSON config file and the defaults below, in that order of precedence. README.md lists them in one table.
public struct AppConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var database: DatabaseLocation
    public var sqliteSynchronous: Store.SQLiteSynchronous
    public var maxConnections: Int
    public var profileName: String
    public var profilesDirectory: URL
    public var blobsDirectory: URL
    public var auth: AuthConfiguration
    public var googleJWKS: String
    public var appleJWKS: String
    public var signingKey: Data?
    public var maxBodyBytes: Int
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

    /// - Configuration keys (environment: `FITCIRCLE_` + the key in upper snake case):
    ///   - `host` (default `127.0.0.1`), `port` (default `8080`)
    ///   - `database.url` (default `sqlite://<working directory>/fitcircle.sqlite`)
    ///   - `sqlite.synchronous` (`normal` or `full`, default `normal`), `database.maxConnections` (default 20)
    ///   - `profile` (default `fitcircle`), `profiles.directory` (default `./profiles`)
    ///   - `blobs.directory` (default `./fitcircle-blobs`)
    ///   - `devLogin` (default `false`)
    ///   - `auth.google.clientIds`, `auth.apple.clientIds` (comma-separated; empty switches the provider off)
    ///   - `auth.google.jwks`, `auth.apple.jwks` (an https URL or a file path; default the provider's URL)
    ///   - `auth.signingKey` (secret, ≥ 32 bytes; default a random key kept in the database)
    ///   - `auth.accessTokenSeconds` (default 900), `auth.refreshTokenDays` (default 30)
    ///   - `http.maxBodyBytes` (default 6 MiB), `log.level` (default `info`)
    ///   - `delivery.apns.key` (the `.p8` key file; none: iOS push off), `delivery.apns.keyId`,
    ///     `delivery.apns.teamId`, `delivery.apns.topic` (the app's bundle id; all three required with a key),
    ///     `delivery.apns.productionUrl` (default `https://api.push.apple.com`),
    ///     `delivery.apns.sandboxUrl` (default `https://api.sandbox.push.apple.com`)
    ///   - `delivery.fcm.serviceAccount` (a service-account key file; none: Android and web push off),
    ///     `delivery.fcm.baseUrl` (default `https://fcm.googleapis.com`)
    ///   - `delivery.webhook.url`, `delivery.webhook.secret` (≥ 32 bytes; no URL: no webhook)
    public init(reader: ConfigReader, workingDirectory: URL) throws {
        self.host = reader.string(forKey: "host", default: "127.0.0.1")
        self.port = reader.int(forKey: "port", default: 8080)
        let defaultDatabase = "sqlite://" + workingDirectory.appendingPathComponent("fitcircle.sqlite").path
        self.database = try DatabaseLocation(url: reader.string(forKey: "database.url", isSecret: true, default: defaultDatabase))
        let synchronous = reader.string(forKey: "sqlite.synchronous", default: "normal")
        guard let mode = Store.SQLiteSynchronous(rawValue: synchronous.uppercased()) else {
            throw InvalidSetting(key: "sqlite.synchronous", expected: "normal or full", found: synchronous)
        }
        self.sqliteSynchronous = mode
        self.maxConnections = reader.int(forKey: "database.maxConnections", default: 20)
        self.profileName = reader.string(forKey: "profile", default: "fitcircle")
        self.profilesDirectory = URL(
            fileURLWithPath: reader.string(forKey: "profiles.directory", default: "profiles"),
            relativeTo: workingDirectory
        )
        self.blobsDirectory = URL(
            fileURLWithPath: reader.string(forKey: "blobs.directory", default: "fitcircle-blobs"),
            relativeTo: workingDirectory
        )
        self.auth = AuthConfiguration(
            googleClientIDs: Self.list(reader.string(forKey: "auth.google.clientIds")),
            appleClientIDs: Self.list(reader.string(forKey: "auth.apple.clientIds")),
            devLogin: reader.bool(forKey: "devLogin", default: false),
            accessTokenLifetime: TimeInterval(reader.int(forKey: "auth.accessTokenSeconds", default: 900)),
            refreshTokenLifetime: TimeInterval(reader.int(forKey: "auth.refreshTokenDays", default: 30) * 86_400)
        )
        self.googleJWKS = reader.string(forKey: "auth.google.jwks", default: "https://www.googleapis.com/oauth2/v3/certs")
        self.appleJWKS = reader.string(forKey: "auth.apple.jwks", default: "https://appleid.apple.com/auth/keys")
        self.signingKey = reader.string(forKey: "auth.signingKey", isSecret: true).map { Data($0.utf8) }
        self.maxBodyBytes = reader.int(forKey: "http.maxBodyBytes", default: 6 * 1024 * 1024)
        self.logLevel = reader.string(forKey: "log.level", default: "info")
        self.apnsKey = reader.string(forKey: "delivery.apns.key")
        self.apnsKeyID = reader.string(forKey: "delivery.apns.keyId")
        self.apnsTeamID = reader.string(forKey: "delivery.apns.teamId")
        self.apnsTopic = reader.string(forKey: "delivery.apns.topic")
        self.apnsProductionURL = reader.string(forKey: "delivery.apns.productionUrl", default: "https://api.push.apple.com")
        self.apnsSandboxURL = reader.string(forKey: "delivery.apns.sandboxUrl", default: "https://api.sandbox.push.apple.com")
        if self.apnsKey != nil {
            for (key, value) in [("delivery.apns.keyId", self.apnsKeyID), ("delivery.apns.teamId", self.apnsTeamID), ("delivery.apns.topic", self.apnsTopic)]
            where value?.isEmpty ?? true {
                throw InvalidSetting(key: key, expected: "a value, since delivery.apns.key is set", found: value ?? "")
            }
        }
        self.fcmServiceAccount = reader.string(forKey: "delivery.fcm.serviceAccount")
        self.fcmBaseURL = reader.string(forKey: "delivery.fcm.baseUrl", default: "https://fcm.googleapis.com")
        self.webhookURL = reader.string(forKey: "delivery.webhook.url")
        self.webhookSecret = reader.string(forKey: "delivery.webhook.secret", isSecret: true)
        if self.webhookURL != nil, (self.webhookSecret?.utf8.count ?? 0) < 32 {
            throw InvalidSetting(key: "delivery.webhook.secret", expected: "a secret of at least 32 bytes", found: "\(self.webhookSecret?.utf8.count ?? 0) bytes")
        }
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
    public var description: String { "Configuration key '\(self.key)': expected \(self.expected), found '\(self.found)'" }
}

extension AppConfiguration {
    /// The delivery transports that are configured (`Transports.missing` says what is off).
    public func transports(clock: WallClock) async throws -> Transports {
        var transports = Transports()
        if let path = self.apnsKey, let keyID = self.apnsKeyID, let teamID = self.apnsTeamID, let topic = self.apnsTopic {
            let key = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
            transports.apns = try await APNsTransport(
                credentials: APNsCredentials(privateKey: key, keyID: keyID, teamID: teamID, topic: topic), productionURL: self.apnsProductionURL,
                sandboxURL: self.apnsSandboxURL, http: .shared, clock: clock)
        }
        if let path = self.fcmServiceAccount {
            let account = try FCMServiceAccount(json: Data(contentsOf: URL(fileURLWithPath: path)))
            transports.fcm = try await FCMTransport(account: account, baseURL: self.fcmBaseURL, http: .shared, clock: clock)
        }
        if let url = self.webhookURL, let secret = self.webhookSecret {
            transports.webhook = WebhookTransport(url: url, secret: Data(secret.utf8), http: .shared, clock: clock)
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
