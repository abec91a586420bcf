import Foundation

/// The message that tells other nodes something landed in a user's inbox (`Notifications.received`).
struct InboxWake: Codable {
    var inbox: String

    var payload: String { String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self) }
}
