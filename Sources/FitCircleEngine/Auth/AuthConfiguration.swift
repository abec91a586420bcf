public import Foundation

/// How people sign in. Providers without client IDs are switched off.
public struct AuthConfiguration: Sendable {
    public var googleClientIDs: Set<String>
    public var appleClientIDs: Set<String>
    /// `POST /api/auth/dev` (sign in by email, no password) exists only when this is on.
    public var devLogin: Bool
    public var accessTokenLifetime: TimeInterval
    public var refreshTokenLifetime: TimeInterval

    public init(
        googleClientIDs: Set<String> = [],
        appleClientIDs: Set<String> = [],
        devLogin: Bool = false,
        accessTokenLifetime: TimeInterval = 15 * 60,
        refreshTokenLifetime: TimeInterval = 30 * 24 * 3600
    ) {
        self.googleClientIDs = googleClientIDs
        self.appleClientIDs = appleClientIDs
        self.devLogin = devLogin
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
    }
}
