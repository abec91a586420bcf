/// How one person stands to another, seen from one side (the viewer's): the states of a friend edge. A
/// friendship is mutual; a request and a block each have a direction.
public struct FriendEdge: Equatable, Sendable {
    public var areFriends: Bool
    /// The viewer asked the other to be friends, and no answer yet.
    public var requestedByMe: Bool
    /// The other asked the viewer.
    public var requestedByThem: Bool
    public var blockedByMe: Bool
    public var blockedByThem: Bool

    public init(
        areFriends: Bool = false,
        requestedByMe: Bool = false,
        requestedByThem: Bool = false,
        blockedByMe: Bool = false,
        blockedByThem: Bool = false
    ) {
        self.areFriends = areFriends
        self.requestedByMe = requestedByMe
        self.requestedByThem = requestedByThem
        self.blockedByMe = blockedByMe
        self.blockedByThem = blockedByThem
    }

    public static let strangers = FriendEdge()

    /// A request waiting for an answer, by direction.
    public enum Pending: String, Sendable {
        case outgoing, incoming
    }

    public var pending: Pending? {
        if self.requestedByMe { return .outgoing }
        if self.requestedByThem { return .incoming }
        return nil
    }
}
