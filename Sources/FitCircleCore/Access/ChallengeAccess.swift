/// Who may do what with a challenge or competition: the access policy's rule for challenges, over facts
/// the engine gathers (the caller's place in it, the code they hold, their relationship to an invitee).
public enum ChallengeAccess {
    public enum Action: Equatable, Sendable {
        /// The challenge, its board and its stream.
        case read
        /// With the join code for a private one; anyone for a public one; those invited (and those in).
        case join
        case decline
        case leave
        /// Asking someone to join: the creator, of their friends and circle mates.
        case invite
        /// Seeing the join code, to share it: the creator and those in.
        case seeCode
    }

    public struct Facts: Equatable, Sendable {
        public var visibility: Challenge.Visibility
        /// The caller's row; nil when they have none.
        public var state: ChallengeParticipant.State?
        public var isCreator: Bool
        /// The caller gave the challenge's join code.
        public var holdsCode: Bool
        public var isOperator: Bool
        /// The creator blocked the caller: the challenge does not exist for them unless they are in it
        /// already (a block acts everywhere, spec 004).
        public var blockedByCreator: Bool

        public init(
            visibility: Challenge.Visibility,
            state: ChallengeParticipant.State?,
            isCreator: Bool = false,
            holdsCode: Bool = false,
            isOperator: Bool = false,
            blockedByCreator: Bool = false
        ) {
            self.blockedByCreator = blockedByCreator
            self.visibility = visibility
            self.state = state
            self.isCreator = isCreator
            self.holdsCode = holdsCode
            self.isOperator = isOperator
        }

        /// Whether the caller may know it exists: anyone for a public one; for a private one its
        /// creator, whoever was asked or took part, who holds the code, and operators.
        public var knowsOf: Bool {
            if self.blockedByCreator && self.state != .joined && !self.isOperator { return false }
            return self.visibility == .public || self.state != nil || self.isCreator || self.holdsCode
                || self.isOperator
        }
    }

    public static func decide(_ action: Action, _ facts: Facts) -> Access {
        switch action {
        case .read:
            return facts.knowsOf ? .allowed : .hidden
        case .join:
            // Someone the creator blocked cannot come in, whatever the code or the invitation.
            if facts.blockedByCreator && facts.state != .joined { return .hidden }
            // Those already in may ask again (the answer is the same).
            if facts.visibility == .public || facts.holdsCode || facts.state == .invited || facts.state == .joined
                || facts.isCreator
            {
                return .allowed
            }
            return denied(facts, "This challenge is private: join with its code or an invitation.")
        case .decline:
            return facts.state == .invited
                ? .allowed : denied(facts, "Only someone invited and not yet in may decline.")
        case .leave:
            return facts.state == .joined ? .allowed : denied(facts, "Only participants may leave.")
        case .invite:
            return facts.isCreator ? .allowed : denied(facts, "Only the challenge's creator may invite people.")
        case .seeCode:
            return facts.isCreator || facts.state == .joined
                ? .allowed : denied(facts, "Only the creator and participants see the join code.")
        }
    }

    /// Whom a creator may invite: their friends and circle mates, never someone who blocked them.
    public static func mayInvite(_ relationship: ProfileAccess.Relationship) -> Bool {
        !relationship.blocked && !relationship.isSelf && (relationship.isFriend || relationship.sharesCircle)
    }

    private static func denied(_ facts: Facts, _ reason: String) -> Access {
        facts.knowsOf ? .forbidden(reason) : .hidden
    }
}
