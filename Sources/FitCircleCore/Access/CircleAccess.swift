/// Who may do what in a circle: the access policy's rule for circles, over facts the engine gathers
/// (the caller's current role, a pending invitation, a ban, operator rights). Pure: handlers and queries
/// never decide this themselves.
public enum CircleAccess {
    public enum Action: Equatable, Sendable {
        /// The circle, its members, boards, history and feed.
        case read
        /// Claims, encouragements, the live stream: what members do.
        case participate
        /// With the join code, or an invitation addressed to the caller.
        case join
        case edit, invite, manageInvitations, rotateCode, liftBan
        case archive, setRoles
        /// Removing a member whose role is the one given.
        case remove(CircleRole)
        /// Restating the boards from the claims (operators and jobs).
        case refreshBoards
    }

    public struct Facts: Equatable, Sendable {
        public var privacy: FitCircle.Privacy
        /// The caller's role now; nil when they are not a member.
        public var role: CircleRole?
        public var invited: Bool
        /// Removed by the circle's managers, and not let back in yet.
        public var banned: Bool
        public var isOperator: Bool
        /// The owner blocked the caller: a circle they are not in does not exist for them (a block acts
        /// everywhere, spec 004); in one they share, the owner is "A member" to them (`ProfileAccess`).
        public var blockedByOwner: Bool

        public init(
            privacy: FitCircle.Privacy,
            role: CircleRole?,
            invited: Bool = false,
            banned: Bool = false,
            isOperator: Bool = false,
            blockedByOwner: Bool = false
        ) {
            self.blockedByOwner = blockedByOwner
            self.privacy = privacy
            self.role = role
            self.invited = invited
            self.banned = banned
            self.isOperator = isOperator
        }

        /// Whether the caller may know the circle exists: a member, someone invited, anyone for a public
        /// circle, an operator.
        public var knowsOf: Bool {
            if self.role != nil || self.isOperator { return true }
            return !self.blockedByOwner && (self.invited || self.privacy == .public)
        }
    }

    public static func decide(_ action: Action, _ facts: Facts) -> Access {
        let managers = "Only the circle's owner and admins may do this."
        switch action {
        case .read:
            return facts.knowsOf ? .allowed : .hidden
        case .participate:
            return facts.role != nil ? .allowed : denied(facts, "Only the circle's members may do this.")
        case .join:
            if facts.blockedByOwner { return .hidden }
            return facts.banned
                ? .forbidden("You were removed from this circle; its owner or an admin can let you back in.") : .allowed
        case .edit, .invite, .manageInvitations, .rotateCode, .liftBan:
            return facts.role?.manages == true ? .allowed : denied(facts, managers)
        case .archive, .setRoles:
            return facts.role == .owner ? .allowed : denied(facts, "Only the circle's owner may do this.")
        case .remove(let target):
            switch facts.role {
            case .owner: return .allowed
            case .admin:
                return target == .member ? .allowed : .forbidden("Only the owner may remove an admin or the owner.")
            case .member, nil: return denied(facts, managers)
            }
        case .refreshBoards:
            return facts.isOperator ? .allowed : denied(facts, "Only operators and jobs may recalculate a leaderboard.")
        }
    }

    /// Refused: with the reason to someone who may know the circle exists, as absent to anyone else.
    private static func denied(_ facts: Facts, _ reason: String) -> Access {
        facts.knowsOf ? .forbidden(reason) : .hidden
    }
}
