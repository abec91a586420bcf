/// Someone a search found, with how they stand to the one searching (for the access policy to decide).
public struct PersonFound: Equatable, Sendable {
    public var userID: User.ID
    public var displayName: String
    public var photo: PersonPhoto?
    public var edge: FriendEdge

    public init(
        userID: User.ID,
        displayName: String,
        photo: PersonPhoto?,
        edge: FriendEdge
    ) {
        self.userID = userID
        self.displayName = displayName
        self.photo = photo
        self.edge = edge
    }
}
