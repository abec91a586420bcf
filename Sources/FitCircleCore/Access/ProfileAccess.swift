/// Which of a person's sensitive fields (age, weight, height) someone else may see: the access policy's rule
/// for people. The owner always sees their own; others as the field's audience says. Wherever a person
/// appears (member lists, boards, feeds, notification text) their fields pass through this rule.
public enum ProfileAccess {
    /// How the viewer stands to the person.
    public struct Relationship: Equatable, Sendable {
        public var isSelf: Bool
        public var isFriend: Bool

        public init(isSelf: Bool, isFriend: Bool = false) {
            self.isSelf = isSelf
            self.isFriend = isFriend
        }
    }

    public static func mayView(_ audience: Audience, _ relationship: Relationship) -> Bool {
        switch audience {
        case .everyone: true
        case .friends: relationship.isSelf || relationship.isFriend
        case .onlyMe: relationship.isSelf
        }
    }
}
