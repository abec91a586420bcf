public import Foundation

/// One raw input, immutable once stored: what happened, when (a UTC instant), where in time (the user's
/// zone then, and so the local date) and where it came from.
public struct ActivityEvent: Equatable, Sendable, Identifiable {
    public typealias ID = Identifier<ActivityEvent>

    public var id: ID
    public var userID: User.ID
    /// The client's own id for this input; the same id twice is the same input.
    public var clientEventID: String
    public var occurredAt: Date
    public var timeZone: String
    public var localDate: LocalDate
    public var source: ActivitySource
    public var receivedAt: Date
    public var payload: ActivityPayload
    /// Accepted but worth a look (anti-cheat, operators): e.g. `steps_spike`.
    public var flags: [String]
    /// Who else sees it; the one part of an event its owner may change later.
    public var visibility: ActivityVisibility

    public init(
        id: ID,
        userID: User.ID,
        clientEventID: String,
        occurredAt: Date,
        timeZone: String,
        localDate: LocalDate,
        source: ActivitySource,
        receivedAt: Date,
        payload: ActivityPayload,
        flags: [String] = [],
        visibility: ActivityVisibility = .friends
    ) {
        self.id = id
        self.userID = userID
        self.clientEventID = clientEventID
        self.occurredAt = occurredAt
        self.timeZone = timeZone
        self.localDate = localDate
        self.source = source
        self.receivedAt = receivedAt
        self.payload = payload
        self.flags = flags
        self.visibility = visibility
    }

    public var kind: ActivityKind { self.payload.kind }

    /// Whether `other` records the same input as this one (same client id, same content): a replay. Who may
    /// see it is not content: its owner may have changed it since.
    public func isReplay(of other: ActivityEvent) -> Bool {
        self.clientEventID == other.clientEventID && self.occurredAt == other.occurredAt && self.timeZone == other.timeZone
            && self.localDate == other.localDate
            && self.source == other.source && self.payload.withoutEstimates == other.payload.withoutEstimates
    }
}
