import Foundation

/// A workout in the friends' feed, with its author and its reactions as the viewer sees them.
public struct FeedActivity: Equatable, Sendable {
    public var event: ActivityEvent
    public var authorName: String
    public var authorPhoto: PersonPhoto?
    /// How many people left each reaction.
    public var reactions: [String: Int]
    /// The reactions the viewer left.
    public var mine: Set<String>

    public init(
        event: ActivityEvent,
        authorName: String,
        authorPhoto: PersonPhoto?,
        reactions: [String: Int],
        mine: Set<String>
    ) {
        self.event = event
        self.authorName = authorName
        self.authorPhoto = authorPhoto
        self.reactions = reactions
        self.mine = mine
    }
}
