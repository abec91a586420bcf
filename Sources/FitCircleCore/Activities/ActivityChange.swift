public import Foundation

/// A change of one of a person's activities, as an app that mirrors them on the device syncs it: the
/// activity as it is now, or, when it was deleted, a tombstone (its ids and the time of its deletion).
public struct ActivityChange: Equatable, Sendable {
    public var id: ActivityEvent.ID
    public var clientEventID: String
    /// When the server last changed it: recorded, edited, made visible to others, deleted.
    public var changedAt: Date
    /// What it is now; nil for a deleted one.
    public var activity: ActivityEvent?
    public var deletedAt: Date?

    public init(changedAt: Date, stored: StoredActivity) {
        self.id = stored.event.id
        self.clientEventID = stored.event.clientEventID
        self.changedAt = changedAt
        self.activity = stored.deletedAt == nil ? stored.event : nil
        self.deletedAt = stored.deletedAt
    }

    /// Where a page of changes ended: the key of its last change.
    public var key: InstantKey { InstantKey(at: self.changedAt, id: self.id.rawValue) }
}

/// How an app's syncs of its activities follow each other without missing a change.
public enum ActivitySync {
    /// How far before a sync's read the next one starts again. A change is stamped when its transaction
    /// runs and seen once it commits: one stamped just before a read and committed after it would fall
    /// between two syncs. No write runs this long, so the next sync sees it; what it sees twice, the app
    /// applies again by id.
    public static let overlap: TimeInterval = 60

    /// The `since` of the sync after a read at `now`.
    public static func since(afterReadingAt now: Date) -> Date {
        now.addingTimeInterval(-Self.overlap)
    }
}
