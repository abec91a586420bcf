public import Foundation

/// Something the person did that the server has still to hear of. Its `id` is sent as the item's client
/// event id or `Idempotency-Key`, so however often it is sent, the server counts it once.
public struct OutboxItem: Codable, Sendable, Identifiable, Equatable {
    public enum Kind: String, Codable, Sendable {
        /// `POST /api/activities/batch`, many at a time.
        case activity
        /// `POST /api/tracking/daily`.
        case dailyTotals
        /// `POST /api/streaks/checkin`.
        case checkIn
        /// `POST /api/user/submissions` (a day's steps to every circle); the body holds the `date`.
        case submission
        /// `POST /api/activities/{target[0]}/reactions`.
        case reaction
        /// `DELETE /api/activities/{target[0]}/reactions/{target[1]}`.
        case reactionRemoval
        /// `POST /api/activities/edits`: a correction of an activity, the latest made on any device winning.
        case edit
    }

    public let id: String
    public let kind: Kind
    /// The request's JSON body, exactly as it will be sent.
    public let body: Data
    /// For reactions: the activity (and the reaction, to take it back).
    public let target: [String]
    /// When the app recorded it.
    public let recordedAt: Date

    public init(id: String = UUID().uuidString, kind: Kind, body: Data, target: [String] = [], recordedAt: Date) {
        self.id = id
        self.kind = kind
        self.body = body
        self.target = target
        self.recordedAt = recordedAt
    }
}

/// An item the server refused for good (its content was invalid, say): taken out of the outbox and kept
/// for the app to show, so one bad item never blocks the rest.
public struct OutboxRejection: Codable, Sendable, Equatable {
    public let item: OutboxItem
    public let problem: FitCircleProblem
}

/// How item bodies are kept: dates to the millisecond, so what is read back is what was recorded.
enum OutboxCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()
}
