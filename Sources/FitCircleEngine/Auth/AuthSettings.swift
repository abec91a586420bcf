public import Configuration
public import FitCircleCore
public import Foundation

/// How people sign in, and where the keys that prove it come from (`auth.*`, `devLogin`).
public struct AuthSettings: Sendable {
    public var configuration: AuthConfiguration
    /// The sign-in providers' key sets: an https URL (fetched and cached) or a file path.
    public var googleJWKS: String
    public var appleJWKS: String
    /// The access tokens' key; nil: a random key kept in the database, shared by all nodes.
    public var signingKey: Data?

    /// The providers' published key sets, the defaults of `auth.google.jwks` and `auth.apple.jwks`.
    public static let googleKeys = "https://www.googleapis.com/oauth2/v3/certs"
    public static let appleKeys = "https://appleid.apple.com/auth/keys"

    public init(
        configuration: AuthConfiguration = AuthConfiguration(),
        googleJWKS: String = Self.googleKeys,
        appleJWKS: String = Self.appleKeys,
        signingKey: Data? = nil
    ) {
        self.configuration = configuration
        self.googleJWKS = googleJWKS
        self.appleJWKS = appleJWKS
        self.signingKey = signingKey
    }

    /// - `devLogin` (default `false`)
    /// - `auth.google.clientIds`, `auth.apple.clientIds` (comma-separated; empty switches the provider off)
    /// - `auth.google.webClientId`, `auth.apple.webClientId`: the web app's sign-in flows (https only)
    /// - `auth.google.jwks`, `auth.apple.jwks` (an https URL or a file path; default the provider's URL)
    /// - `auth.signingKey` (secret, ≥ 32 bytes; default a random key kept in the database)
    /// - `auth.accessTokenSeconds` (default 900), `auth.refreshTokenDays` (default 30), `auth.sessionDays` (default 90)
    public init(reader: ConfigReader) throws {
        let accessSeconds = reader.int(forKey: "auth.accessTokenSeconds", default: 900)
        let refreshDays = reader.int(forKey: "auth.refreshTokenDays", default: 30)
        let sessionDays = reader.int(forKey: "auth.sessionDays", default: 90)
        for (key, value, most) in [
            ("auth.accessTokenSeconds", accessSeconds, 86_400), ("auth.refreshTokenDays", refreshDays, 3_650),
            ("auth.sessionDays", sessionDays, 3_650),
        ] where !(1...most).contains(value) {
            throw InvalidSetting(key: key, expected: "a whole number from 1 to \(most)", found: "\(value)")
        }
        func list(_ key: String) -> Set<String> {
            let text = reader.string(forKey: ConfigKey(key)) ?? ""
            return Set(
                text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            )
        }
        self.init(
            configuration: AuthConfiguration(
                googleClientIDs: list("auth.google.clientIds"),
                appleClientIDs: list("auth.apple.clientIds"),
                googleWebClientID: reader.string(forKey: "auth.google.webClientId").flatMap { $0.isEmpty ? nil : $0 },
                appleWebClientID: reader.string(forKey: "auth.apple.webClientId").flatMap { $0.isEmpty ? nil : $0 },
                devLogin: reader.bool(forKey: "devLogin", default: false),
                accessTokenLifetime: TimeInterval(accessSeconds),
                refreshTokenLifetime: TimeInterval(refreshDays * 86_400),
                sessionLifetime: TimeInterval(sessionDays * 86_400)
            ),
            googleJWKS: reader.string(forKey: "auth.google.jwks", default: Self.googleKeys),
            appleJWKS: reader.string(forKey: "auth.apple.jwks", default: Self.appleKeys),
            signingKey: reader.string(forKey: "auth.signingKey", isSecret: true).map { Data($0.utf8) }
        )
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
