/// A feed item with its encouragement, as one member reads it.
public struct FeedRow: Equatable, Sendable {
    public var item: FeedItem
    public var actorName: String
    public var actorPhoto: PersonPhoto?
    /// Who sees the actor's name on the circle's boards and feed.
    public var actorNameAudience: Audience
    public var encouragements: Int
    /// Whether the reader encouraged it.
    public var encouraged: Bool
    /// The actor is "A member" to the reader: the row names no one, not even by id.
    public var anonymous = false

    public init(
        item: FeedItem,
        actorName: String,
        actorPhoto: PersonPhoto?,
        actorNameAudience: Audience,
        encouragements: Int,
        encouraged: Bool
    ) {
        self.item = item
        self.actorName = actorName
        self.actorPhoto = actorPhoto
        self.actorNameAudience = actorNameAudience
        self.encouragements = encouragements
        self.encouraged = encouraged
    }
}
