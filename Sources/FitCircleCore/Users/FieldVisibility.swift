/// Who may see a profile field besides its owner.
public enum Audience: String, CaseIterable, Equatable, Sendable, Codable {
    /// Anyone who sees the person (circle mates included).
    case everyone
    /// Friends see it.
    case friends
    /// Only the owner sees it.
    case onlyMe = "only_me"
}

/// Which of the sensitive profile fields friends may see (spec 004, 5.7). Weight is hidden by default.
public struct FieldVisibility: Equatable, Sendable, Codable {
    public var age: Audience
    public var weight: Audience
    public var height: Audience

    public init(age: Audience = .friends, weight: Audience = .onlyMe, height: Audience = .friends) {
        self.age = age
        self.weight = weight
        self.height = height
    }

    public static let `default` = FieldVisibility()
}
