/// Who may see a profile field besides its owner.
public enum Audience: String, CaseIterable, Equatable, Sendable, Codable {
    /// Anyone who sees the person (circle mates included).
    case everyone
    /// Friends see it.
    case friends
    /// Only the owner sees it.
    case onlyMe = "only_me"
}

/// Who sees what of a person besides themselves (spec 004, 5.7): the sensitive fields (weight is hidden by
/// default), the photo, and their name on circle boards and feeds (others see "A member").
public struct FieldVisibility: Equatable, Sendable, Codable {
    public var age: Audience
    public var weight: Audience
    public var height: Audience
    public var photo: Audience
    public var boardName: Audience

    public init(
        age: Audience = .friends,
        weight: Audience = .onlyMe,
        height: Audience = .friends,
        photo: Audience = .everyone,
        boardName: Audience = .everyone
    ) {
        self.age = age
        self.weight = weight
        self.height = height
        self.photo = photo
        self.boardName = boardName
    }

    public static let `default` = FieldVisibility()
}
