/// Which of a person's fields (age, weight, height, photo, name on boards) someone else may see: the access
/// policy's rule for people. The owner always sees their own; others as the field's audience says. Wherever a person
/// appears (member lists, boards, feeds, notification text) their fields pass through this rule.
public enum ProfileAccess {
    /// How the viewer stands to the person.
    public struct Relationship: Equatable, Sendable {
        public var isSelf: Bool
        public var isFriend: Bool
        /// The two are members of one circle now.
        public var sharesCircle: Bool
        /// The person blocked the viewer (`FriendAccess`): nothing of them is shown, whatever its audience.
        public var blocked: Bool

        public init(isSelf: Bool, isFriend: Bool = false, sharesCircle: Bool = false, blocked: Bool = false) {
            self.isSelf = isSelf
            self.isFriend = isFriend
            self.sharesCircle = sharesCircle
            self.blocked = blocked
        }
    }

    /// What of a person is shown beyond what their audiences govern.
    public enum Facet: Sendable {
        /// Unlocked badges and the showcase: public to every signed-in user (but someone they blocked), like a
        /// game profile's trophies.
        case badges
        /// Their challenge record and their rivalry with the viewer: as public as the badges.
        case challengeRecord
    }

    public static func mayView(_ facet: Facet, _ relationship: Relationship) -> Bool {
        if relationship.blocked && !relationship.isSelf { return false }
        return switch facet {
        case .badges, .challengeRecord: true
        }
    }

    /// Whether the viewer sees the person's photo (its audience; `everyone` by default, as a photo is how
    /// people recognise each other in search, boards and feeds). Refused, the person has none (404).
    public static func mayView(photo: PersonPhoto?, _ relationship: Relationship) -> Bool {
        guard let photo else { return false }
        return Self.mayView(photo.audience, relationship)
    }

    /// How a person is named on a circle's boards and feed and in what they raise there: to those their
    /// `boardName` audience allows, by name; to the others as "A member", without a photo (which would
    /// name them as well).
    public static func boardName(_ name: String, audience: Audience, _ relationship: Relationship) -> String? {
        Self.mayView(audience, relationship) ? name : nil
    }

    public static let anonymousMember = "A member"

    /// Whether the viewer sees the kilograms a person lost (the monthly and all-time boards of weight-loss
    /// circles): as far as their weight's audience reaches; the others see the share of their goal instead.
    public static func mayViewWeightLost(weightAudience: Audience, _ relationship: Relationship) -> Bool {
        Self.mayView(weightAudience, relationship)
    }

    public static func mayView(_ audience: Audience, _ relationship: Relationship) -> Bool {
        if relationship.blocked && !relationship.isSelf { return false }
        return switch audience {
        case .everyone: true
        case .friends: relationship.isSelf || relationship.isFriend
        case .onlyMe: relationship.isSelf
        }
    }
}
