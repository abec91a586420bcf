import FitCircleCore
import Foundation
import Synchronization

/// The decoded payloads of the activities this process has read lately, by their JSON text: the same text
/// always decodes to the same payload, so what is kept is never stale (an edit, even one rolled back, has
/// another text) and needs no word from other nodes; and a payload is looked up only once its row has been
/// read, so it gives out nothing the database would not. It spares decoding the same JSON again for every
/// reader of a popular workout (in `perf` of the friends' feed, decoding the rows' payloads was a fifth of a
/// page). Bounded: texts up to `largestText` bytes, and at most `capacity` of them (`RecentlyUsed`).
final class ActivityPayloads: Sendable {
    static let shared = ActivityPayloads(capacity: 4_096, largestText: 2_048)

    private let largestText: Int
    private let kept: Mutex<RecentlyUsed<String, ActivityPayload>>

    init(capacity: Int, largestText: Int) {
        self.largestText = largestText
        self.kept = Mutex(RecentlyUsed(capacity: capacity))
    }

    /// How many payloads are kept.
    var count: Int { self.kept.withLock { $0.count } }

    /// The payload `json` holds.
    func payload(_ json: String, decoder: JSONDecoder) throws -> ActivityPayload {
        guard json.utf8.count <= self.largestText else {
            return try decoder.decode(ActivityPayload.self, from: Data(json.utf8))
        }
        if let payload = self.kept.withLock({ $0.value(for: json) }) { return payload }
        let payload = try decoder.decode(ActivityPayload.self, from: Data(json.utf8))
        self.kept.withLock { $0.insert(payload, for: json) }
        return payload
    }
}
