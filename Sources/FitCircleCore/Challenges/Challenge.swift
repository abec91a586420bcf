public import Foundation

/// A challenge or competition (specs 002 and 004; one resource): a rule, a span from `startsAt` to
/// `endsAt` (set in the creator's zone), participants, an optional XP stake each puts in escrow, and a
/// settlement. Its board is the engine's board of one fixed span (`BoardID(challenge:start:)`).
public struct Challenge: Equatable, Sendable, Identifiable {
    public typealias ID = Identifier<Challenge>

    public enum Visibility: String, CaseIterable, Equatable, Sendable, Codable {
        /// Listed; anyone may join until it ends.
        case `public`
        /// Joined with the code, or by those invited.
        case `private`
    }

    /// Where a challenge is in its life; all but `settled` and `cancelled` follow from the clock.
    public enum Status: String, CaseIterable, Equatable, Sendable, Codable {
        case scheduled, active
        /// Over, and still taking late syncs of the span until it settles.
        case ended
        case settled, cancelled
    }

    public var id: ID
    public var name: String
    public var description: String?
    /// The preset it was made as (`distance`, `fastest_pace`, …), or `custom`.
    public var type: ChallengeType
    public var rule: ChallengeRule
    public var visibility: Visibility
    public var joinCode: String
    public var creatorID: User.ID
    /// The creator's zone when it was made: the span's days and the board's first day.
    public var timeZone: String
    public var startsAt: Date
    public var endsAt: Date
    /// XP each participant puts in escrow to join; 0 for none.
    public var stake: Int
    /// Fewer participants at the start cancels the challenge (stakes refunded).
    public var minParticipants: Int
    public var maxParticipants: Int
    public var templateID: String?
    public var templateVersion: Int?
    public var createdAt: Date
    public var settledAt: Date?
    public var cancelledAt: Date?

    public init(
        id: ID,
        name: String,
        description: String?,
        type: ChallengeType,
        rule: ChallengeRule,
        visibility: Visibility,
        joinCode: String,
        creatorID: User.ID,
        timeZone: String,
        startsAt: Date,
        endsAt: Date,
        stake: Int,
        minParticipants: Int,
        maxParticipants: Int,
        templateID: String? = nil,
        templateVersion: Int? = nil,
        createdAt: Date,
        settledAt: Date? = nil,
        cancelledAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.type = type
        self.rule = rule
        self.visibility = visibility
        self.joinCode = joinCode
        self.creatorID = creatorID
        self.timeZone = timeZone
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.stake = stake
        self.minParticipants = minParticipants
        self.maxParticipants = maxParticipants
        self.templateID = templateID
        self.templateVersion = templateVersion
        self.createdAt = createdAt
        self.settledAt = settledAt
        self.cancelledAt = cancelledAt
    }

    /// Syncs of the span that arrive this long after its end still count; then it settles.
    public static let settlementGrace: TimeInterval = 2 * 3600

    public var settlesAt: Date { self.endsAt.addingTimeInterval(Self.settlementGrace) }

    /// Workouts count from a little before the start: a challenge made on the spot is often raced at once,
    /// and the app that records the run as it starts may be a few seconds behind the server's clock. The
    /// tolerance is the clock skew the API accepts the other way (`ActivityRules.maximumFutureSkew`).
    public static let startTolerance: TimeInterval = ActivityRules.maximumFutureSkew

    /// The earliest start of a workout that counts.
    public var countsWorkoutsFrom: Date { self.startsAt.addingTimeInterval(-Self.startTolerance) }

    public func status(at now: Date) -> Status {
        if self.cancelledAt != nil { return .cancelled }
        if self.settledAt != nil { return .settled }
        if now < self.startsAt { return .scheduled }
        return now < self.endsAt ? .active : .ended
    }

    /// Whether an activity started at `instant` counts.
    public func holds(_ instant: Date) -> Bool { self.startsAt <= instant && instant < self.endsAt }

    /// The board's first day: the start's date in the creator's zone.
    public var board: BoardID {
        BoardID(challenge: self.id, start: LocalDate(self.startsAt, in: TimeZone(identifier: self.timeZone) ?? .gmt))
    }

    /// Seconds left until the end (0 once over, or cancelled).
    public func secondsRemaining(at now: Date) -> Int {
        self.cancelledAt != nil ? 0 : max(0, Int(self.endsAt.timeIntervalSince(now).rounded(.up)))
    }
}

/// The ten kinds of challenge the specs name, each a preset of `ChallengeRule`: spec 002's six (distance,
/// duration, calories, workout count, XP, a specific workout) and spec 004's four (most distance, most
/// activities, longest single activity, fastest pace); `custom` is a rule given whole (templates).
public enum ChallengeType: String, CaseIterable, Equatable, Sendable, Codable {
    case distance, duration, calories, workouts, xp
    case specificWorkout = "specific_workout"
    case mostDistance = "most_distance"
    case mostActivities = "most_activities"
    case longestActivity = "longest_activity"
    case fastestPace = "fastest_pace"
    case custom

    /// The preset's rule before the creator's choices (goal, target, filter) are laid over it.
    public var rule: ChallengeRule {
        switch self {
        case .distance, .mostDistance, .custom: ChallengeRule(metric: .distance)
        case .duration: ChallengeRule(metric: .duration)
        case .calories: ChallengeRule(metric: .calories)
        case .workouts, .mostActivities, .specificWorkout: ChallengeRule(metric: .workouts)
        case .xp: ChallengeRule(metric: .xp)
        /// By distance: the longest single run, walk or ride.
        case .longestActivity: ChallengeRule(metric: .distance, aggregation: .longest)
        /// On foot (a ride's pace is no match for a run's), over at least one kilometre.
        case .fastestPace:
            ChallengeRule(
                metric: .distance,
                aggregation: .fastestPace,
                filter: .init(workoutTypes: [.running, .walking], minDistanceKm: 1)
            )
        }
    }
}

/// One person in a challenge.
public struct ChallengeParticipant: Equatable, Sendable {
    public enum State: String, CaseIterable, Equatable, Sendable, Codable {
        /// Asked to join; not in yet.
        case invited
        case joined
        case declined
        /// Left before the start (stake refunded).
        case left
    }

    public var challengeID: Challenge.ID
    public var userID: User.ID
    public var state: State
    /// XP put in escrow (0 when the challenge has no stake or it was refunded).
    public var staked: Int
    public var invitedBy: User.ID?
    public var updatedAt: Date
    /// Set at settlement.
    public var finalRank: Int?
    public var finalValue: Double?
    public var won: Bool
    /// XP paid out of escrow to this participant (a share of the pot, or a refund).
    public var payout: Int
    public var paidAt: Date?

    public init(
        challengeID: Challenge.ID,
        userID: User.ID,
        state: State,
        staked: Int = 0,
        invitedBy: User.ID? = nil,
        updatedAt: Date,
        finalRank: Int? = nil,
        finalValue: Double? = nil,
        won: Bool = false,
        payout: Int = 0,
        paidAt: Date? = nil
    ) {
        self.challengeID = challengeID
        self.userID = userID
        self.state = state
        self.staked = staked
        self.invitedBy = invitedBy
        self.updatedAt = updatedAt
        self.finalRank = finalRank
        self.finalValue = finalValue
        self.won = won
        self.payout = payout
        self.paidAt = paidAt
    }
}
