public import FitCircleCore
public import Foundation

/// What a successful sign-in or refresh hands the app.
public struct SignIn: Equatable, Sendable {
    public var accessToken: String
    /// When the tokens were issued, by the injected clock.
    public var issuedAt: Date
    public var accessTokenExpiresAt: Date
    public var refreshToken: String
    public var refreshTokenExpiresAt: Date
    public var user: User
    /// The session the tokens belong to (a refresh keeps it).
    public var sessionID: Session.ID
    /// `true` when this sign-in created the account.
    public var isNewUser: Bool
}

/// Which ways of signing in this server offers.
public struct AvailableSignIn: Equatable, Sendable {
    public var google: Bool
    public var apple: Bool
    public var dev: Bool
}
