public import Foundation

/// One event of the analytics ledger: an app's (sent to `POST /api/events`) or the server's own. The key
/// is unique per user — an app's client event id, or the server's key for what happened — so a repeat is
/// the same event, counted once.
public struct AnalyticsEvent: Equatable, Sendable {
    public enum Source: String, Sendable, Codable {
        case app, server
    }

    public var userID: User.ID
    public var key: String
    public var name: String
    public var source: Source
    public var occurredAt: Date
    /// The user's day when it happened, in their zone then.
    public var localDate: LocalDate
    public var properties: [String: EventValue]
    public var receivedAt: Date

    public init(
        userID: User.ID,
        key: String,
        name: String,
        source: Source,
        occurredAt: Date,
        localDate: LocalDate,
        properties: [String: EventValue] = [:],
        receivedAt: Date
    ) {
        self.userID = userID
        self.key = key
        self.name = name
        self.source = source
        self.occurredAt = occurredAt
        self.localDate = localDate
        self.properties = properties
        self.receivedAt = receivedAt
    }

    /// A server event of `user`'s, dated in their zone.
    public static func server(
        _ event: ServerEvent,
        key: String,
        of user: User,
        at now: Date,
        properties: [String: EventValue] = [:]
    ) -> AnalyticsEvent {
        .server(event, key: key, of: user.id, on: user.localDate(at: now), at: now, properties: properties)
    }

    /// A server event of `user` on their local day `date` (where only the day is at hand).
    public static func server(
        _ event: ServerEvent,
        key: String,
        of user: User.ID,
        on date: LocalDate,
        at now: Date,
        properties: [String: EventValue] = [:]
    ) -> AnalyticsEvent {
        AnalyticsEvent(
            userID: user,
            key: "\(event.rawValue):\(key)",
            name: event.rawValue,
            source: .server,
            occurredAt: now,
            localDate: date,
            properties: properties,
            receivedAt: now
        )
    }
}
