public import Foundation

/// A FitCircle: people who compete on one metric over a span of days in a home time zone (spec 000,
/// Feature 3).
public struct FitCircle: Equatable, Sendable {
    public typealias ID = Identifier<FitCircle>

    /// What the circle's boards rank.
    public enum Metric: String, CaseIterable, Equatable, Sendable, Codable {
        case steps
        case weightLossPct = "weight_loss_pct"
        case checkinStreak = "checkin_streak"
    }

    /// A public circle can be joined with its code by anyone who has it, and is listed; a private one only
    /// with an invitation or the code.
    public enum Privacy: String, CaseIterable, Equatable, Sendable, Codable {
        case `public`, `private`
    }

    public var id: ID
    public var name: String
    public var description: String?
    public var metric: Metric
    /// The first and last days of the competition in the home zone; open-ended without an end.
    public var startDate: LocalDate
    public var endDate: LocalDate?
    /// Where the circle's days begin and end (its boards roll over at this zone's midnight).
    public var timeZone: String
    public var privacy: Privacy
    public var memberLimit: Int
    /// Step circles with an end: the steps each member aims for over the whole competition (spec 000 F2's
    /// `challenge_step_goal`); their weekly step goal is their share of it (`weeklyStepShare`).
    public var stepGoal: Int?
    public var ownerID: User.ID
    /// Shared to let people join; unique.
    public var joinCode: String
    public var archivedAt: Date?
    public var createdAt: Date

    public init(
        id: ID,
        name: String,
        description: String?,
        metric: Metric,
        startDate: LocalDate,
        endDate: LocalDate?,
        timeZone: String,
        privacy: Privacy,
        memberLimit: Int,
        stepGoal: Int? = nil,
        ownerID: User.ID,
        joinCode: String,
        archivedAt: Date? = nil,
        createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.metric = metric
        self.startDate = startDate
        self.endDate = endDate
        self.timeZone = timeZone
        self.privacy = privacy
        self.memberLimit = memberLimit
        self.stepGoal = stepGoal
        self.ownerID = ownerID
        self.joinCode = joinCode
        self.archivedAt = archivedAt
        self.createdAt = createdAt
    }

    public var isArchived: Bool { self.archivedAt != nil }

    /// The circle's home zone (UTC if the identifier is unknown).
    public var zone: TimeZone { TimeZone(identifier: self.timeZone) ?? .gmt }

    /// The circle's date at `now`: the day its boards are on.
    public func today(at now: Date) -> LocalDate { LocalDate(now, in: self.zone) }

    /// The circle edited to `valid` (`startGiven`: the client named a start; else the start stays). Once the
    /// competition has begun (`today` in its zone on or after the start) its metric, start and zone stay
    /// (a conflict); the member limit never falls below the `members` it has.
    public func edited(with valid: CircleInput.Valid, startGiven: Bool, today: LocalDate, members: Int) throws
        -> FitCircle
    {
        if self.startDate <= today {
            for (field, changed) in [
                ("metric", valid.metric != self.metric), ("startDate", startGiven && valid.startDate != self.startDate),
                ("timeZone", valid.timeZone != self.timeZone),
            ] where changed {
                throw DomainError.refused(
                    Refusal(.alreadyStarted, "The competition has begun: its \(field) can no longer change.")
                )
            }
        }
        guard valid.memberLimit >= members else {
            throw ValidationError(
                field: "memberLimit",
                reason: "must be at least the \(members) members the circle has"
            )
        }
        var edited = self
        edited.name = valid.name
        edited.description = valid.description
        edited.metric = valid.metric
        if startGiven { edited.startDate = valid.startDate }
        edited.endDate = valid.endDate
        edited.timeZone = valid.timeZone
        edited.privacy = valid.privacy
        edited.memberLimit = valid.memberLimit
        edited.stepGoal = valid.stepGoal
        return edited
    }

    /// Whether members' goals follow the circle (a weight-loss target, or a step goal): joining or leaving
    /// it plans them again.
    public var setsGoals: Bool { self.metric == .weightLossPct || self.stepGoal != nil }

    /// Weeks from the one starting `weekStart` to the competition's last day, that week included and a part
    /// week counted whole (at least 1); nil for an open-ended circle.
    public static func weeksRemaining(from weekStart: LocalDate, to end: LocalDate?) -> Int? {
        end.map { (max(1, $0.days(since: weekStart) + 1) + 6) / 7 }
    }

    /// A member's step goal for the week starting `weekStart` (spec 000 F2, "FitCircle participants: weekly
    /// goals derived from challenge targets"): what is left of `stepGoal` after the steps they claimed
    /// before the week, over the weeks remaining, rounded up to 100. Nil without a step goal, without an
    /// end, outside the competition or once the goal is met (their own baseline then applies).
    public func weeklyStepShare(claimedBefore claimed: Int, weekStart: LocalDate) -> Int? {
        guard let goal = self.stepGoal, let end = self.endDate, weekStart <= end,
            self.startDate <= weekStart.adding(days: 6),
            let weeks = Self.weeksRemaining(from: max(weekStart, self.startDate), to: end), goal > claimed
        else { return nil }
        let share = (goal - claimed + weeks - 1) / weeks
        return (share + 99) / 100 * 100
    }

    /// Whether the competition counts `date` (a calendar date, wherever the member is).
    public func runs(on date: LocalDate) -> Bool {
        self.startDate <= date && self.endDate.map { date <= $0 } ?? true
    }

    /// The characters of a join code: no 0/O or 1/I to misread.
    public static let joinCodeAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    public static let joinCodeLength = 8
}

/// What a member may do in a circle.
public enum CircleRole: String, CaseIterable, Equatable, Sendable, Codable {
    /// Created it: edits, archives, invites, removes anyone, names admins.
    case owner
    /// Edits, invites and removes members.
    case admin
    case member

    public var manages: Bool { self != .member }
}

/// One stint of a user in a circle: a member who leaves and comes back has two.
public struct CircleMembership: Equatable, Sendable {
    public var circleID: FitCircle.ID
    public var userID: User.ID
    public var role: CircleRole
    public var joinedAt: Date
    public var leftAt: Date?
    /// Weight-loss circles: where this member starts and what they aim for.
    public var startingWeightKg: Double?
    public var targetWeightKg: Double?

    public init(
        circleID: FitCircle.ID,
        userID: User.ID,
        role: CircleRole,
        joinedAt: Date,
        leftAt: Date? = nil,
        startingWeightKg: Double? = nil,
        targetWeightKg: Double? = nil
    ) {
        self.circleID = circleID
        self.userID = userID
        self.role = role
        self.joinedAt = joinedAt
        self.leftAt = leftAt
        self.startingWeightKg = startingWeightKg
        self.targetWeightKg = targetWeightKg
    }
}

extension CircleMembership {
    /// Who takes a circle over when its owner leaves: the longest-standing admin, else the longest-standing
    /// member (`remaining` in the order they joined); nobody when none is left.
    public static func heir(among remaining: [CircleMembership]) -> CircleMembership? {
        remaining.first { $0.role == .admin } ?? remaining.first
    }
}

/// An invitation to a circle, for an account or an email address. It lapses after `lifetime`, and the
/// circle's managers (or whoever sent it) may revoke it before.
public struct CircleInvitation: Equatable, Sendable {
    public typealias ID = Identifier<CircleInvitation>

    public var id: ID
    public var circleID: FitCircle.ID
    /// The invited account, when the address (or the id) names one.
    public var userID: User.ID?
    public var email: String?
    public var invitedBy: User.ID
    public var createdAt: Date
    public var acceptedAt: Date?
    public var revokedAt: Date?

    public static let lifetime: TimeInterval = 14 * 86_400

    public init(
        id: ID,
        circleID: FitCircle.ID,
        userID: User.ID?,
        email: String?,
        invitedBy: User.ID,
        createdAt: Date,
        acceptedAt: Date? = nil,
        revokedAt: Date? = nil
    ) {
        self.id = id
        self.circleID = circleID
        self.userID = userID
        self.email = email
        self.invitedBy = invitedBy
        self.createdAt = createdAt
        self.acceptedAt = acceptedAt
        self.revokedAt = revokedAt
    }

    public var expiresAt: Date { self.createdAt.addingTimeInterval(Self.lifetime) }

    /// Neither accepted, revoked nor lapsed at `now`.
    public func isPending(at now: Date) -> Bool {
        self.acceptedAt == nil && self.revokedAt == nil && now < self.expiresAt
    }

    /// Whether it is the account's to accept or decline: made for it, or for its address before the address
    /// had an account.
    public func isAddressed(to user: User.ID, email: String?) -> Bool {
        self.userID == user || (self.userID == nil && email != nil && self.email == email)
    }
}

/// How many invitations one person may send, and one person or address receive, in 24 hours: an invitation
/// reaches people who never chose the sender (and is critical: no preference stops it), so it is capped.
public enum InvitationLimits {
    public static let sentPerDay = 30
    public static let receivedPerDay = 5
    public static let window: TimeInterval = 86_400
}
