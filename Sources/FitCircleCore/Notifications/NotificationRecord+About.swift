extension NotificationRecord {
    /// The data keys that name what a notification is about: a circle, a challenge, a circle invitation, a
    /// workout, the person who acted. Each is read by one operation of the API (`DeepLinks`).
    public static let subjectKeys: Set<String> = ["circleId", "challengeId", "invitationId", "activityId", "actorId"]

    /// What the notification is about, by id, so that an app routes it without parsing its deep link (API
    /// review, item 6): the ids among its data, never the names and figures its text was made of.
    public var about: [String: String] { self.data.filter { Self.subjectKeys.contains($0.key) } }
}
