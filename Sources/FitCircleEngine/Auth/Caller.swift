public import FitCircleCore
public import Foundation

/// Who is making a request, resolved from a valid access token or a service key.
public struct Caller: Equatable, Sendable {
    public var user: User
    public var sessionID: Session.ID
    /// The service key the request came with; nil for a person. A service acts for no person: `user` is a
    /// stand-in whose id is the key's, which no account has, so a read of "the caller's" data finds nothing,
    /// and `ServiceAccess` lets a key reach only the operator operations of its scopes.
    public var service: ServiceKey?

    public init(user: User, sessionID: Session.ID) {
        self.user = user
        self.sessionID = sessionID
    }

    /// The caller a service key makes.
    public init(service key: ServiceKey) {
        self.user = User(
            id: User.ID(key.id.rawValue),
            email: "",
            profile: UserProfile(displayName: key.name, timeZone: "UTC", onboardedAt: key.createdAt),
            createdAt: key.createdAt
        )
        self.sessionID = Session.ID(key.id.rawValue)
        self.service = key
    }

    /// The caller's account as the session found it (possibly from this node's memory): not for access
    /// decisions on operator rights, which the access policy reads fresh (`OperatorAccess`).
    public var userID: User.ID { self.user.id }
}
