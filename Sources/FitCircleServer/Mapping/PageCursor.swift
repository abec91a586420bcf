import FitCircleCore
import Foundation

/// The one cursor format of every paged list: the list's name and the key of a page's last item, joined by
/// `|` and base64url-encoded. Clients hand it back as given (`cursor` = the page's `nextCursor`); one made
/// up, or a cursor of another list, is refused naming `cursor`.
enum PageCursor {
    /// The lists read a page at a time; a cursor names its own.
    enum List: String {
        case activities, bans, blocks, board, circles, challenges, deliveries, friends, invitations, jobs, ledger
        /// A sync's changes with tombstones (after a `since`), a first sync's live activities, and the
        /// `syncToken` that starts the next sync.
        case activityChanges = "activity-changes"
        case activityFirstSync = "activity-first-sync"
        case activitySync = "activity-sync"
        case members, notifications
        case incomingRequests = "incoming-requests"
        case outgoingRequests = "outgoing-requests"
        case sentInvitations = "sent-invitations"
        case circleFeed = "circle-feed"
        case claimsToday = "claims-today"
        case myChallenges = "my-challenges"
        case myCircles = "my-circles"
        case openChallenges = "open-challenges"
        case webhookDeliveries = "webhook-deliveries"
    }

    static func encode(_ list: List, _ key: String...) -> String {
        Data(([list.rawValue] + key).joined(separator: "|").utf8).base64URLEncoded()
    }

    /// The `count` parts of the key of a cursor of `list` (the last part may itself hold a `|`).
    static func decode(_ text: String, of list: List, parts count: Int) throws -> [String] {
        let parts =
            text.utf8.count <= 512
            ? Data(base64URLEncoded: text).map {
                String(decoding: $0, as: UTF8.self).split(separator: "|", maxSplits: count).map(String.init)
            } : nil
        guard let parts, parts.count == count + 1, parts[0] == list.rawValue, parts.allSatisfy({ !$0.isEmpty }) else {
            throw Self.refused
        }
        return Array(parts.dropFirst())
    }

    /// The key of a cursor of `list` that is the id of the page's last item.
    static func id(_ text: String, of list: List) throws -> String {
        try self.decode(text, of: list, parts: 1)[0]
    }

    static let refused = ValidationError(
        field: "cursor",
        reason: "is not a cursor of this list (use a nextCursor as given)"
    )
}

/// A cursor of a list ordered by an instant: the instant and id of the page's last item (`InstantKey`).
enum InstantCursor {
    static func encode(_ list: PageCursor.List, _ key: InstantKey) -> String {
        PageCursor.encode(list, "\(key.at.timeIntervalSince1970)", key.id)
    }

    static func decode(_ text: String, of list: PageCursor.List) throws -> InstantKey {
        let parts = try PageCursor.decode(text, of: list, parts: 2)
        guard let seconds = Double(parts[0]), seconds.isFinite, abs(seconds) < 1e11 else { throw PageCursor.refused }
        return InstantKey(at: Date(timeIntervalSince1970: seconds), id: parts[1])
    }
}

/// A leaderboard cursor: the board key of the last row seen.
enum BoardCursor {
    static func encode(_ key: BoardKey) -> String {
        PageCursor.encode(.board, "\(key.value)", "\(key.reachedMilliseconds)", key.user.rawValue)
    }

    static func decode(_ text: String) throws -> BoardKey {
        let parts = try PageCursor.decode(text, of: .board, parts: 3)
        guard let value = Double(parts[0]), value.isFinite, let reached = Int64(parts[1]) else {
            throw PageCursor.refused
        }
        return BoardKey(value: value, reachedMilliseconds: reached, user: User.ID(parts[2]))
    }
}

/// An activity cursor: the instant and id of the last event seen, so pages stay stable while new events
/// arrive (the friends' feed pages the same way).
enum ActivityCursor {
    static func encode(occurredAt: Date, id: ActivityEvent.ID) -> String {
        PageCursor.encode(.activities, "\(occurredAt.timeIntervalSince1970)", id.rawValue)
    }

    static func decode(_ text: String) throws -> (occurredAt: Date, id: ActivityEvent.ID) {
        let parts = try PageCursor.decode(text, of: .activities, parts: 2)
        guard let instant = Double(parts[0]).flatMap(Instant.supported(secondsSince1970:)) else {
            throw PageCursor.refused
        }
        return (instant, ActivityEvent.ID(parts[1]))
    }
}
