public import FitCircleCore

/// What an answer kept outside the store was built from (issue 42: a friends' feed page kept for its reader),
/// to ask later whether any of it changed. Exact across nodes as the store's memory is: the writes note what
/// they change (`CacheTag`), this node hears the others' notes, and a mark read before a change is never
/// taken for current after it.
public struct ChangeMark: Sendable {
    let stamp: UInt64
    let tags: [CacheTag]
}

extension Store {
    /// The stamp to read before building an answer that may be kept; nil while this node's memory does not
    /// serve (on PostgreSQL: while it does not hear the other nodes), and nothing is kept.
    public var changeStamp: UInt64? { self.cache.stamp() }

    /// The mark of a first page of `reader`'s friends' feed built after reading `stamp`: it is current while
    /// the reader's feed index (a workout in or out, an edit, a visibility), the reader's and the authors'
    /// accounts (names, photos, friendships, blocks, deletion) and the page's workouts (reactions, deletion)
    /// are unchanged.
    public func feedPageMark(
        of reader: User.ID,
        authors: some Sequence<User.ID>,
        workouts: some Sequence<ActivityEvent.ID>,
        readAfter stamp: UInt64
    )
        -> ChangeMark
    {
        ChangeMark(
            stamp: stamp,
            tags: [.feed(reader), .user(reader)] + Set(authors).map(CacheTag.user) + workouts.map(CacheTag.activity)
        )
    }

    /// Whether nothing `mark` covers changed since it was read.
    public func unchanged(_ mark: ChangeMark) -> Bool {
        self.cache.unchanged(mark.tags, since: mark.stamp)
    }
}
