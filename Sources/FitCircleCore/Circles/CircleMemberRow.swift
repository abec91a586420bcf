/// A current member with what the member list shows of them.
public struct CircleMemberRow: Equatable, Sendable {
    public var membership: CircleMembership
    public var displayName: String
    public var photo: PersonPhoto?
    /// Who sees the member's name on boards and in the feed.
    public var boardNameAudience: Audience
    /// Who may see the member's weight (their starting and target weight in the circle).
    public var weightAudience: Audience

    public init(
        membership: CircleMembership,
        displayName: String,
        photo: PersonPhoto?,
        boardNameAudience: Audience,
        weightAudience: Audience
    ) {
        self.membership = membership
        self.displayName = displayName
        self.photo = photo
        self.boardNameAudience = boardNameAudience
        self.weightAudience = weightAudience
    }
}
