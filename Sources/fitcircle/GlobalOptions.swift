import ArgumentParser
import Configuration
import Foundation
import SystemPackage

/// Flags every command shares. Each one overrides the `FITCIRCLE_*` environment variable and the config file.
struct GlobalOptions: ParsableArguments {
    @Option(help: "Port to listen on (FITCIRCLE_PORT; default 8080).")
    var port: Int?

    @Option(help: "Address to listen on (FITCIRCLE_HOST; default 127.0.0.1).")
    var host: String?

    @Option(
        help: "postgres://user:password@host:port/database or sqlite:///absolute/path.sqlite (FITCIRCLE_DATABASE_URL)."
    )
    var databaseURL: String?

    @Option(help: "Rule profile to load from the profiles directory (FITCIRCLE_PROFILE; default fitcircle).")
    var profile: String?

    @Option(
        name: .customLong("profiles-dir"),
        help: "Directory of rule profiles (FITCIRCLE_PROFILES_DIRECTORY; default ./profiles)."
    )
    var profilesDirectory: String?

    @Flag(help: "Enable POST /api/auth/dev: sign in by email alone. Never in production (FITCIRCLE_DEV_LOGIN).")
    var devLogin = false

    @Option(help: "A JSON configuration file; flags and environment variables override it.")
    var config: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical (FITCIRCLE_LOG_LEVEL; default info).")
    var logLevel: String?

    /// Flags beat `FITCIRCLE_*` environment variables, which beat the config file, which beats the defaults.
    func reader() async throws -> ConfigReader {
        var flags: [AbsoluteConfigKey: ConfigValue] = [:]
        if let port { flags["port"] = .init(.int(port), isSecret: false) }
        if let host { flags["host"] = .init(.string(host), isSecret: false) }
        if let databaseURL { flags["database.url"] = .init(.string(databaseURL), isSecret: true) }
        if let profile { flags["profile"] = .init(.string(profile), isSecret: false) }
        if let profilesDirectory { flags["profiles.directory"] = .init(.string(profilesDirectory), isSecret: false) }
        if self.devLogin { flags["devLogin"] = .init(.bool(true), isSecret: false) }
        if let logLevel { flags["log.level"] = .init(.string(logLevel), isSecret: false) }
        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "flags", values: flags),
            EnvironmentVariablesProvider().prefixKeys(with: "fitcircle"),
        ]
        if let config {
            providers.append(try await FileProvider<JSONSnapshot>(filePath: .init(config)))
        }
        return ConfigReader(providers: providers)
    }
}
