public import FitCircleCore
public import Foundation
import SQLKit

/// One email as the email log keeps it (one per notification).
public struct EmailLogEntry: Equatable, Sendable {
    public var notification: NotificationRecord.ID
    public var user: User.ID
    public var type: String
    public var address: String
    public var subject: String
    public var messageID: String
    /// Where the tracked links lead, by index.
    public var links: [String]
    public var createdAt: Date
    public var openedAt: Date?
    public var openCount: Int
    public var clickedAt: Date?
    public var clickCount: Int

    public init(
        notification: NotificationRecord.ID,
        user: User.ID,
        type: String,
        address: String,
        subject: String,
        messageID: String,
        links: [String],
        createdAt: Date,
        openedAt: Date? = nil,
        openCount: Int = 0,
        clickedAt: Date? = nil,
        clickCount: Int = 0
    ) {
        self.notification = notification
        self.user = user
        self.type = type
        self.address = address
        self.subject = subject
        self.messageID = messageID
        self.links = links
        self.createdAt = createdAt
        self.openedAt = openedAt
        self.openCount = openCount
        self.clickedAt = clickedAt
        self.clickCount = clickCount
    }
}

extension DeliveryQueries {
    private var sql: any SQLDatabase { self.tx.sql }
    /// Keeps the email of a notification; a retry of the same email changes nothing.
    public func insert(_ entry: EmailLogEntry) async throws {
        try await self.sql.raw(
            """
            INSERT INTO email_log (notification_id, user_id, type, address, subject, message_id, links, created_at)
            VALUES (\(bind: entry.notification.rawValue), \(bind: entry.user.rawValue), \(bind: entry.type), \(bind: entry.address),
                \(bind: entry.subject), \(bind: entry.messageID), \(bind: try Transaction.json(entry.links)), \(bind: entry.createdAt))
            ON CONFLICT (notification_id) DO NOTHING
            """
        ).run()
    }

    public func emailLogEntry(of notification: NotificationRecord.ID) async throws -> EmailLogEntry? {
        try await self.sql.raw("SELECT * FROM email_log WHERE notification_id = \(bind: notification.rawValue)").first()
            .map { row in
                EmailLogEntry(
                    notification: notification,
                    user: User.ID(try row.decode(column: "user_id", as: String.self)),
                    type: try row.decode(column: "type", as: String.self),
                    address: try row.decode(column: "address", as: String.self),
                    subject: try row.decode(column: "subject", as: String.self),
                    messageID: try row.decode(column: "message_id", as: String.self),
                    links: try JSONDecoder().decode(
                        [String].self,
                        from: Data(try row.decode(column: "links", as: String.self).utf8)
                    ),
                    createdAt: try row.decode(column: "created_at", as: Date.self),
                    openedAt: try row.decode(column: "opened_at", as: Date?.self),
                    openCount: try row.decode(column: "open_count", as: Int.self),
                    clickedAt: try row.decode(column: "clicked_at", as: Date?.self),
                    clickCount: try row.decode(column: "click_count", as: Int.self)
                )
            }
    }

    /// Counts an opening (the first sets `opened_at`); false when there is no such email.
    public func recordEmailOpened(_ notification: NotificationRecord.ID, at now: Date) async throws -> Bool {
        try await self.sql.raw(
            """
            UPDATE email_log SET open_count = open_count + 1, opened_at = COALESCE(opened_at, \(bind: now))
            WHERE notification_id = \(bind: notification.rawValue) RETURNING notification_id
            """
        ).all().count == 1
    }

    /// Counts a click (the first sets `clicked_at`; a click is an opening too).
    public func recordEmailClicked(_ notification: NotificationRecord.ID, at now: Date) async throws {
        try await self.sql.raw(
            """
            UPDATE email_log SET click_count = click_count + 1, clicked_at = COALESCE(clicked_at, \(bind: now)),
                opened_at = COALESCE(opened_at, \(bind: now))
            WHERE notification_id = \(bind: notification.rawValue)
            """
        ).run()
    }
}
