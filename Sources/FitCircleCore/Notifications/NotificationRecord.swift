public import Foundation

/// One decision about one candidate, kept: the log, the history, and (for in-app) the inbox.
public struct NotificationRecord: Equatable, Sendable, Identifiable {
    public typealias ID = Identifier<NotificationRecord>

    public var id: ID
    public var type: String
    public var dedupeKey: String
    public var critical: Bool
    public var title: String
    public var body: String
    public var deepLink: String?
    public var data: [String: String]
    public var status: Status
    public var reason: String?
    public var channels: [NotificationChannel]
    /// The user's local date when it was decided.
    public var date: LocalDate
    public var decidedAt: Date
    /// When a deferred notification is decided again.
    public var deliverAt: Date?
    public var readAt: Date?
    public var openedAt: Date?
    public var actionAt: Date?
    /// Each rule the decision went through, in order.
    public var trail: [String]

    public enum Status: String, CaseIterable, Equatable, Sendable, Codable {
        case sent, deferred, dropped
    }

    public init(
        id: ID,
        type: String,
        dedupeKey: String,
        critical: Bool,
        title: String,
        body: String,
        deepLink: String?,
        data: [String: String],
        status: Status,
        reason: String?,
        channels: [NotificationChannel],
        date: LocalDate,
        decidedAt: Date,
        deliverAt: Date? = nil,
        readAt: Date? = nil,
        openedAt: Date? = nil,
        actionAt: Date? = nil,
        trail: [String]
    ) {
        self.id = id
        self.type = type
        self.dedupeKey = dedupeKey
        self.critical = critical
        self.title = title
        self.body = body
        self.deepLink = deepLink
        self.data = data
        self.status = status
        self.reason = reason
        self.channels = channels
        self.date = date
        self.decidedAt = decidedAt
        self.deliverAt = deliverAt
        self.readAt = readAt
        self.openedAt = openedAt
        self.actionAt = actionAt
        self.trail = trail
    }
}

/// A device that receives push notifications.
public struct PushDevice: Equatable, Sendable, Identifiable {
    public typealias ID = Identifier<PushDevice>

    public var id: ID
    public var platform: Platform
    public var token: String
    public var environment: Environment
    public var active: Bool
    public var registeredAt: Date

    public enum Platform: String, Equatable, Sendable, Codable, CaseIterable { case ios, android, web }
    public enum Environment: String, Equatable, Sendable, Codable, CaseIterable { case sandbox, production }

    public init(
        id: ID,
        platform: Platform,
        token: String,
        environment: Environment,
        active: Bool = true,
        registeredAt: Date
    ) {
        self.id = id
        self.platform = platform
        self.token = token
        self.environment = environment
        self.active = active
        self.registeredAt = registeredAt
    }
}
