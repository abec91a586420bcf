public import Foundation

/// One raw input: what happened, when (a UTC instant), where in time (the user's zone then, and so the local
/// date) and where it came from. Stored once; its owner may correct it later (`revision`), and the latest
/// correction made on any device wins.
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
    /// Who else sees it.
    public var visibility: ActivityVisibility
    /// How many edits it has had: each version earns its points apart (`workout:<id>:r<revision>`).
    public var revision: Int
    /// When the device made the stored version, for an edited event.
    public var modifiedAt: Date?

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
        visibility: ActivityVisibility = .friends,
        revision: Int = 0,
        modifiedAt: Date? = nil
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
        self.revision = revision
        self.modifiedAt = modifiedAt
    }

    /// When the stored version was made on the client: its last edit, else when it happened.
    public var versionTime: Date { self.modifiedAt ?? self.occurredAt }

    /// Whether an edit made on a device at `modifiedAt` replaces this version: only a later one does, so
    /// that two devices that edited it offline end on the same version whichever syncs first (a tie keeps
    /// the stored one).
    public func isSuperseded(byEditAt modifiedAt: Date) -> Bool {
        modifiedAt > self.versionTime
    }

    public var kind: ActivityKind { self.payload.kind }

    /// Whether `other` records the same input as this one (same client id, same content): a replay. Who may
    /// see it is not content: its owner may have changed it since.
    public func isReplay(of other: ActivityEvent) -> Bool {
        self.clientEventID == other.clientEventID && self.occurredAt == other.occurredAt
            && self.timeZone == other.timeZone
            && self.localDate == other.localDate
            && self.source == other.source && self.payload.withoutEstimates == other.payload.withoutEstimates
    }
}
