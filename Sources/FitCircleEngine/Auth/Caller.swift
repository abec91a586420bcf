public import FitCircleCore

/// Who is making a request, resolved from a valid access token.
public struct Caller: Equatable, Sendable {
    public var user: User
    public var sessionID: Session.ID

    public init(user: User, sessionID: Session.ID) {
        self.user = user
        self.sessionID = sessionID
    }

    /// The caller's account as the session found it (possibly from this node's memory): not for access
    /// decisions on operator rights, which the access policy reads fresh (`OperatorAccess`).
    public var userID: User.ID { self.user.id }
}
