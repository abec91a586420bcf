public import FitCircleCore

/// Who is making a request, resolved from a valid access token.
public struct Caller: Equatable, Sendable {
    public var user: User
    public var sessionID: Session.ID

    public init(user: User, sessionID: Session.ID) {
        self.user = user
        self.sessionID = sessionID
    }

    public var userID: User.ID { self.user.id }
    public var isOperator: Bool { self.user.role == .operator }
}
