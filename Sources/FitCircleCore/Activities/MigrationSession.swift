public import Foundation

/// A move of local history into FitCircle (spec 004, R14): the app opens a session, sends its events in
/// batches that name it, and reads how many arrived, so it marks its local data migrated only once all of
/// it is here. Each client event counts once per session, by its client id, with its latest answer: a
/// batch sent again (a timeout, a retry) changes no count, and an event refused then sent fixed moves from
/// refused to accepted.
public struct MigrationSession: Equatable, Sendable {
    public typealias ID = Identifier<MigrationSession>

    public var id: ID
    public var createdAt: Date
    /// How many events the app said it would send, if it said.
    public var expected: Int?
    public var counts: Counts

    public struct Counts: Equatable, Sendable {
        /// Distinct client events the session's batches carried.
        public var received: Int
        /// Recorded by this session.
        public var accepted: Int
        /// Recorded before (by another path, or an earlier session): nothing to move.
        public var duplicates: Int
        /// Refused, and not sent successfully since.
        public var refused: Int

        public init(received: Int = 0, accepted: Int = 0, duplicates: Int = 0, refused: Int = 0) {
            self.received = received
            self.accepted = accepted
            self.duplicates = duplicates
            self.refused = refused
        }
    }

    /// What a batch answered for one of its events.
    public enum Outcome: String, Sendable {
        case accepted, duplicate, refused
    }

    public init(id: ID, createdAt: Date, expected: Int?, counts: Counts = Counts()) {
        self.id = id
        self.createdAt = createdAt
        self.expected = expected
        self.counts = counts
    }

    /// Everything the app said it would send is here: accepted or already recorded, none refused.
    public var isComplete: Bool {
        guard let expected else { return false }
        return self.counts.refused == 0 && self.counts.accepted + self.counts.duplicates >= expected
    }

    /// The most events a session may say it will send, and how many sessions a person keeps (a new one
    /// past it replaces their oldest).
    public static let maximumExpected = 10_000_000
    public static let keptPerUser = 20
}
