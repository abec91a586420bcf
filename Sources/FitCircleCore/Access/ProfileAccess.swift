/// Which of a person's sensitive fields (age, weight, height) someone else may see: the access policy's rule
/// for people. The owner always sees their own; others as the field's audience says. Wherever a person
/// appears (member lists, boards, feeds, notification text) their fields pass through this rule.
public enum ProfileAccess {
    /// How the viewer stands to the person.
    public struct Relationship: Equatable, Sendable {
        public var isSelf: Bool
        public var isFriend: Bool
        /// The two are members of one circle now.
        public var sharesCircle: Bool

        public init(isSelf: Bool, isFriend: Bool = false, sharesCircle: Bool = false) {
            self.isSelf = isSelf
            self.isFriend = isFriend
            self.sharesCircle = sharesCircle
        }
    }

    /// What of a person is shown beyond the fields an audience governs.
    public enum Facet: Sendable {
        /// The profile photo: to the person and to those who see them in a circle (members, boards, feeds).
        case photo
        /// Unlocked badges and the showcase: public to every signed-in user, like a game profile's trophies.
        case badges
    }

    /// Whether the viewer may see `facet` of the person; refused, the person is answered as having none (404).
    public static func mayView(_ facet: Facet, _ relationship: Relationship) -> Bool {
        switch facet {
        case .photo: relationship.isSelf || relationship.sharesCircle || relationship.isFriend
        case .badges: true
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
