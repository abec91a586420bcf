public import Foundation

/// Where a page of a list ordered by an instant ended: its last item's instant and id. The next page
/// starts past it even when that item has left the list meanwhile (someone unblocked between two pages),
/// which a key looked up by the last item's id could not.
public struct InstantKey: Equatable, Sendable {
    public var at: Date
    public var id: String

    public init(at: Date, id: String) {
        self.at = at
        self.id = id
    }
}
