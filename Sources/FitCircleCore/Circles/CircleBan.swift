public import Foundation

/// A member removed from a circle, kept out until its managers let them back in.
public struct CircleBan: Equatable, Sendable {
    public var userID: User.ID
    public var displayName: String
    public var bannedBy: User.ID
    public var bannedAt: Date

    public init(
        userID: User.ID,
        displayName: String,
        bannedBy: User.ID,
        bannedAt: Date
    ) {
        self.userID = userID
        self.displayName = displayName
        self.bannedBy = bannedBy
        self.bannedAt = bannedAt
    }
}
