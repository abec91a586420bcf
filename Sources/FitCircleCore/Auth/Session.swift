public import Foundation

/// One sign-in on one device: the family of refresh tokens that rotate from it. Revoking it signs that device out.
public struct Session: Equatable, Sendable {
    public typealias ID = Identifier<Session>

    public var id: ID
    public var userID: User.ID
    public var createdAt: Date
    public var revokedAt: Date?

    public init(id: ID, userID: User.ID, createdAt: Date, revokedAt: Date? = nil) {
        self.id = id
        self.userID = userID
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    public var isRevoked: Bool { self.revokedAt != nil }
}

/// A stored refresh token: only its hash is kept. Each is used once; using it again means it was stolen.
public struct RefreshTokenRecord: Equatable, Sendable {
    public var tokenHash: String
    public var sessionID: Session.ID
    public var issuedAt: Date
    public var expiresAt: Date
    public var usedAt: Date?

    public init(tokenHash: String, sessionID: Session.ID, issuedAt: Date, expiresAt: Date, usedAt: Date? = nil) {
        self.tokenHash = tokenHash
        self.sessionID = sessionID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}
