import Foundation

/// The message that tells other nodes something landed in a user's inbox (`Notifications.received`).
struct InboxWake: Codable {
    var inbox: String

    /// How every such message begins (its one key), so that other messages are told apart unread.
    static let prefix = #"{"inbox":"#

    var payload: String { String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self) }
}
