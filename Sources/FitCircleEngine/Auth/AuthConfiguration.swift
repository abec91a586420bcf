public import Foundation

/// How people sign in. Providers without client IDs are switched off.
public struct AuthConfiguration: Sendable {
    /// The apps' client IDs: the audiences `POST /api/auth/{provider}` accepts.
    public var googleClientIDs: Set<String>
    public var appleClientIDs: Set<String>
    /// The web app's client ID: the one audience the web flow (`/web/auth/{provider}`) accepts. A token made
    /// for the web flow is not an app's: the app endpoint refuses it, unless the same ID is an app's too.
    public var googleWebClientID: String?
    public var appleWebClientID: String?
    /// `POST /api/auth/dev` (sign in by email, no password) exists only when this is on.
    public var devLogin: Bool
    public var accessTokenLifetime: TimeInterval
    /// Each refresh token lives this long, and each refresh brings a new one: a device in use stays signed in.
    public var refreshTokenLifetime: TimeInterval
    /// However often it is refreshed, a session ends this long after its sign-in (a stolen refresh token
    /// kept fresh does not work forever); the person signs in again.
    public var sessionLifetime: TimeInterval

    public init(
        googleClientIDs: Set<String> = [],
        appleClientIDs: Set<String> = [],
        googleWebClientID: String? = nil,
        appleWebClientID: String? = nil,
        devLogin: Bool = false,
        accessTokenLifetime: TimeInterval = 15 * 60,
        refreshTokenLifetime: TimeInterval = 30 * 24 * 3600,
        sessionLifetime: TimeInterval = 90 * 24 * 3600
    ) {
        self.googleClientIDs = googleClientIDs
        self.appleClientIDs = appleClientIDs
        self.googleWebClientID = googleWebClientID
        self.appleWebClientID = appleWebClientID
        self.devLogin = devLogin
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.sessionLifetime = sessionLifetime
    }
}
