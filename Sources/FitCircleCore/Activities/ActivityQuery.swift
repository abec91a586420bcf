public import Foundation

/// Which of a user's events to list.
public struct ActivityQuery: Equatable, Sendable {
    public var kind: ActivityKind?
    public var from: LocalDate?
    public var to: LocalDate?
    /// The last event of the previous page.
    public var after: (occurredAt: Date, id: ActivityEvent.ID)?
    public var limit: Int

    public init(
        kind: ActivityKind? = nil,
        from: LocalDate? = nil,
        to: LocalDate? = nil,
        after: (occurredAt: Date, id: ActivityEvent.ID)? = nil,
        limit: Int = 50
    ) {
        self.kind = kind
        self.from = from
        self.to = to
        self.after = after
        self.limit = limit
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind && lhs.from == rhs.from && lhs.to == rhs.to && lhs.limit == rhs.limit
            && lhs.after?.occurredAt == rhs.after?.occurredAt && lhs.after?.id == rhs.after?.id
    }
}
