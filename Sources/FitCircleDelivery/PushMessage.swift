public import Foundation

/// What a push says, in the shape of spec 000's payloads: a title and body, a badge and sound, and the
/// notification's type and deep link as data.
public struct PushMessage: Equatable, Sendable {
    public var title: String
    public var body: String
    /// `data.type`: the notification type, so the app knows what it is.
    public var type: String
    /// `data.deep_link`: where a tap takes the user.
    public var deepLink: String?
    /// `data.notification_id`: the notification in the inbox, to mark it read or opened.
    public var notificationID: String?
    /// What the notification is about, by id (`circleId`, `actorId`…), as `data.circle_id`, `data.actor_id`….
    public var about: [String: String]
    public var badge: Int?
    public var sound: String
    /// Messages with one collapse id replace each other on the device (APNs `apns-collapse-id`).
    public var collapseID: String?
    /// After this the provider drops the message rather than deliver it late (APNs `apns-expiration`).
    public var expiresAt: Date?

    public init(
        title: String,
        body: String,
        type: String,
        deepLink: String?,
        notificationID: String? = nil,
        about: [String: String] = [:],
        badge: Int? = nil,
        sound: String = "default",
        collapseID: String? = nil,
        expiresAt: Date? = nil
    ) {
        self.title = title
        self.body = body
        self.type = type
        self.deepLink = deepLink
        self.notificationID = notificationID
        self.about = about
        self.badge = badge
        self.sound = sound
        self.collapseID = collapseID
        self.expiresAt = expiresAt
    }

    /// `data`: the type and, when there are, the deep link, the notification's id and the ids of what it is
    /// about, their keys in snake case as the others' (`circleId` is `circle_id`).
    var data: [String: String] {
        var data = ["type": self.type]
        if let deepLink = self.deepLink { data["deep_link"] = deepLink }
        if let id = self.notificationID { data["notification_id"] = id }
        for (key, id) in self.about { data[Self.snakeCased(key)] = id }
        return data
    }

    private static func snakeCased(_ key: String) -> String {
        key.reduce(into: "") { name, character in
            if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
        }
    }
}
