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
        badge: Int? = nil,
        sound: String = "default",
        collapseID: String? = nil,
        expiresAt: Date? = nil
    ) {
        self.title = title
        self.body = body
        self.type = type
        self.deepLink = deepLink
        self.badge = badge
        self.sound = sound
        self.collapseID = collapseID
        self.expiresAt = expiresAt
    }

    /// `data`: the type and, when there is one, the deep link.
    var data: [String: String] {
        var data = ["type": self.type]
        if let deepLink = self.deepLink { data["deep_link"] = deepLink }
        return data
    }
}
