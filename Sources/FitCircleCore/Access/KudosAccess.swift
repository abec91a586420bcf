/// Kudos: a friend's "well done" on a person's page, one per friend, counted there. The access policy's
/// rule: the count is as public as the person's badges; only a friend may give one, never to oneself;
/// someone who blocked the caller is not there (404).
public enum KudosAccess {
    public enum Action: Equatable, Sendable {
        /// See how many kudos the person has, and whether the caller gave one.
        case view
        /// Give a kudos, or take one back.
        case give
    }

    public static func decide(_ action: Action, _ relationship: ProfileAccess.Relationship) -> Access {
        if relationship.blocked && !relationship.isSelf { return .hidden }
        switch action {
        case .view:
            return ProfileAccess.mayView(.badges, relationship) ? .allowed : .hidden
        case .give:
            if relationship.isSelf { return .forbidden("You cannot give yourself kudos.") }
            return relationship.isFriend ? .allowed : .forbidden("Only friends give each other kudos.")
        }
    }
}
