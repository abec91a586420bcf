public import Foundation

/// An event as stored, with its deletion mark.
public struct StoredActivity: Equatable, Sendable {
    public var event: ActivityEvent
    public var deletedAt: Date?

    public init(
        event: ActivityEvent,
        deletedAt: Date?
    ) {
        self.event = event
        self.deletedAt = deletedAt
    }
}
