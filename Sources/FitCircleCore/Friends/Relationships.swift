/// Everyone a person stands in some relation to, seen from their side: their friends, the requests waiting
/// either way, whom they blocked and who blocked them. Read once for a search (`Transaction.relationships`), it
/// gives each person found their edge without a probe per row.
public struct Relationships: Equatable, Sendable {
    public var friends: Set<User.ID>
    public var requested: Set<User.ID>
    public var requestedBy: Set<User.ID>
    public var blocked: Set<User.ID>
    public var blockedBy: Set<User.ID>

    public init(
        friends: Set<User.ID> = [], requested: Set<User.ID> = [], requestedBy: Set<User.ID> = [], blocked: Set<User.ID> = [],
        blockedBy: Set<User.ID> = []
    ) {
        self.friends = friends
        self.requested = requested
        self.requestedBy = requestedBy
        self.blocked = blocked
        self.blockedBy = blockedBy
    }

    public func edge(to other: User.ID) -> FriendEdge {
        FriendEdge(
            areFriends: self.friends.contains(other), requestedByMe: self.requested.contains(other), requestedByThem: self.requestedBy.contains(other),
            blockedByMe: self.blocked.contains(other), blockedByThem: self.blockedBy.contains(other))
    }
}
