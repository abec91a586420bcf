public import Configuration
import FitCircleCore
public import FitCircleEngine
public import FitCircleStore
public import Foundation

/// Every setting of a node, one type per concern, each read by the module that owns it. `fitcircle` reads
/// them from flags, `FITCIRCLE_*` environment variables (the key in upper snake case), an optional JSON
/// config file and the defaults, in that order of precedence; the tests and the benchmarks from memory.
/// README.md lists every key in one table; each concern's `init(reader:)` says its own.
public struct FitCircleConfiguration: Sendable {
    /// `database.*`, `sqlite.synchronous`.
    public var store: Store.Settings
    /// `blobs.*`: where uploaded files live.
    public var blobs: BlobStoreSetting
    /// `profile`, `profiles.directory`.
    public var rules: RuleSettings
    /// `auth.*`, `devLogin`.
    public var auth: AuthSettings
    /// `host`, `port`, `http.*`, `limits.*`, `server.publicUrl`, `metrics.token`.
    public var node: NodeSettings
    /// `delivery.*`, `email.*`, `webhooks.allowPrivateTargets`.
    public var delivery: DeliverySettings
    /// `analytics.forward.*`.
    public var analytics: AnalyticsSettings
    /// `log.level` (default `info`).
    public var logLevel: String

    public init(reader: ConfigReader, workingDirectory: URL) throws {
        self.store = try Store.Settings(reader: reader, workingDirectory: workingDirectory)
        self.blobs = try BlobStoreSetting(reader: reader, workingDirectory: workingDirectory)
        self.rules = RuleSettings(reader: reader, workingDirectory: workingDirectory)
        self.auth = try AuthSettings(reader: reader)
        self.node = try NodeSettings(reader: reader, auth: self.auth.configuration)
        self.delivery = try DeliverySettings(reader: reader, publicURL: self.node.web.publicURL)
        self.analytics = try AnalyticsSettings(reader: reader)
        self.logLevel = reader.string(forKey: "log.level", default: "info")
        // Dev login lets anyone sign in as anyone: a typo in an environment variable must not open a public host.
        if self.auth.configuration.devLogin, !self.node.listensOnLoopbackOnly,
            !reader.bool(forKey: "devLogin.dangerouslyAllowOnPublicHost", default: false)
        {
            throw InvalidSetting(
                key: "devLogin",
                expected:
                    "off when listening beyond loopback (or devLogin.dangerouslyAllowOnPublicHost, if anyone may sign in as anyone)",
                found: "on, with host \(self.node.host)"
            )
        }
    }

    /// Settings given in code (the tests, the benchmarks): `values` by key, as a config file would give them.
    public init(_ values: [String: ConfigContent], workingDirectory: URL) throws {
        var keyed: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, value) in values {
            keyed[AbsoluteConfigKey(stringLiteral: key)] = ConfigValue(value, isSecret: false)
        }
        try self.init(
            reader: ConfigReader(providers: [InMemoryProvider(values: keyed)]),
            workingDirectory: workingDirectory
        )
    }
}
