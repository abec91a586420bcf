public import Foundation

/// A challenge as a client creates it, before validation: a preset type with the creator's choices laid
/// over its rule (goal, target, which workouts count), the span, who may join and the stake.
public struct ChallengeInput: Equatable, Sendable {
    /// Default: the template's name.
    public var name: String?
    public var description: String?
    /// Required unless made from a template.
    public var type: ChallengeType?
    /// The catalog template it is made from; its values are the defaults the others override.
    public var template: ChallengeTemplate?
    public var goal: ChallengeRule.Goal?
    public var target: Double?
    public var filter: ChallengeRule.Filter
    public var visibility: Challenge.Visibility?
    /// Default: now.
    public var startsAt: Date?
    /// Required unless made from a template.
    public var durationDays: Int?
    public var stake: Int?
    public var minParticipants: Int?
    public var maxParticipants: Int?
    /// People asked to join (friends or circle mates of the creator).
    public var invitees: [User.ID]

    public static let durations = 1...366
    public static let stakes = 0...100_000
    public static let participantLimits = 2...100_000
    public static let defaultMaxParticipants = 100
    public static let maxInvitees = 100
    public static let furthestStart: TimeInterval = 366 * 86_400
    /// How many of a unit a target may be: enough for a year of anything, never an overflow.
    public static let targets = 0.001...10_000_000.0

    public init(
        name: String?,
        description: String? = nil,
        type: ChallengeType?,
        template: ChallengeTemplate? = nil,
        goal: ChallengeRule.Goal? = nil,
        target: Double? = nil,
        filter: ChallengeRule.Filter = .init(),
        visibility: Challenge.Visibility? = nil,
        startsAt: Date? = nil,
        durationDays: Int?,
        stake: Int? = nil,
        minParticipants: Int? = nil,
        maxParticipants: Int? = nil,
        invitees: [User.ID] = []
    ) {
        self.name = name
        self.description = description
        self.type = type
        self.template = template
        self.goal = goal
        self.target = target
        self.filter = filter
        self.visibility = visibility
        self.startsAt = startsAt
        self.durationDays = durationDays
        self.stake = stake
        self.minParticipants = minParticipants
        self.maxParticipants = maxParticipants
        self.invitees = invitees
    }

    /// A validated challenge's fields.
    public struct Valid: Equatable, Sendable {
        public var name: String
        public var description: String?
        public var type: ChallengeType
        public var rule: ChallengeRule
        public var visibility: Challenge.Visibility
        public var startsAt: Date
        public var endsAt: Date
        public var stake: Int
        public var minParticipants: Int
        public var maxParticipants: Int
        public var invitees: [User.ID]
        public var templateID: String?
        public var templateVersion: Int?
    }

    /// The fields as they will be stored, when every one is valid. The end is the start's wall-clock time
    /// `durationDays` later in the creator's zone (a DST change in between moves it by the hour, not the day).
    public func validated(creatorZone zone: TimeZone, now: Date) throws(ValidationError) -> Valid {
        var validator = Validator()
        let template = self.template
        let type = self.type ?? template?.type ?? .custom
        validator.check(
            self.type != nil || template != nil,
            "type",
            "is required unless the challenge is made from a template (templateId)"
        )
        if let template {
            validator.check(
                self.type == nil || self.type == template.type,
                "type",
                "must be the template's (\(template.type.rawValue)) or left out"
            )
            validator.check(
                template.isOffered(on: LocalDate(now, in: zone)),
                "templateId",
                "is a seasonal template offered in months \(template.season?.months.map(String.init).joined(separator: ", ") ?? "")"
            )
        }
        let name = (self.name ?? template?.name).flatMap { validator.text($0, "name", .circleName) } ?? ""
        validator.check(self.name != nil || template != nil, "name", "is required")
        let description = (self.description ?? template?.description).flatMap {
            validator.text($0, "description", .description)
        }
        var rule = template?.rule ?? type.rule
        if let goal = self.goal { rule.goal = goal }
        if let target = self.target { rule.target = target }
        rule.filter = Self.merged(self.filter, over: rule.filter)
        if type == .specificWorkout {
            validator.check(
                rule.filter.workoutTypes?.isEmpty == false,
                "workoutTypes",
                "names the workout a specific_workout challenge counts"
            )
        }
        if let target = rule.target {
            validator.check(
                target.isFinite && Self.targets.contains(target),
                "target",
                "must be a number above 0 and at most 10000000 \(rule.unit)"
            )
        } else {
            validator.check(rule.goal == .most, "target", "is required when the goal is \(rule.goal.rawValue)")
        }
        if rule.aggregation == .weeksMet {
            validator.check(
                rule.weeklyTarget.map { $0.isFinite && Self.targets.contains($0) } ?? false,
                "weeklyTarget",
                "must be a number above 0 and at most 10000000"
            )
        }
        if rule.aggregation == .fastestPace {
            validator.check(rule.goal != .firstTo, "goal", "a pace is not reached first; use most or everyone_to")
        }
        for (field, value) in [
            ("minDurationMinutes", rule.filter.minDurationMinutes),
            ("maxDurationMinutes", rule.filter.maxDurationMinutes),
            ("minDistanceKm", rule.filter.minDistanceKm),
        ] {
            if let value {
                validator.check(value.isFinite && (0...100_000).contains(value), field, "must be between 0 and 100000")
            }
        }
        let days = self.durationDays ?? template?.durationDays ?? 0
        validator.check(Self.durations.contains(days), "durationDays", "must be between 1 and 366 days")
        let start = self.startsAt ?? template?.season?.defaultStart(now: now, in: zone) ?? now
        validator.check(start >= now.addingTimeInterval(-300), "startsAt", "must not be in the past")
        validator.check(
            start <= now.addingTimeInterval(Self.furthestStart),
            "startsAt",
            "must be within a year from now"
        )
        let stake = self.stake ?? 0
        validator.check(Self.stakes.contains(stake), "stake", "must be between 0 and 100000 XP")
        let most = self.maxParticipants ?? Self.defaultMaxParticipants
        validator.check(Self.participantLimits.contains(most), "maxParticipants", "must be between 2 and 100000")
        let least = self.minParticipants ?? 2
        validator.check(
            (1...max(1, most)).contains(least),
            "minParticipants",
            "must be between 1 and maxParticipants (\(most))"
        )
        validator.check(
            self.invitees.count <= Self.maxInvitees,
            "invitees",
            "may name at most \(Self.maxInvitees) people"
        )
        try validator.throwIfInvalid()
        return Valid(
            name: name,
            description: description?.isEmpty == true ? nil : description,
            type: type,
            rule: rule,
            visibility: self.visibility ?? .private,
            startsAt: start,
            endsAt: Self.end(of: start, days: days, in: zone),
            stake: stake,
            minParticipants: least,
            maxParticipants: most,
            invitees: Array(Set(self.invitees)).sorted(),
            templateID: template?.id,
            templateVersion: template?.version
        )
    }

    /// `days` after `start` at the same time on the clock in `zone`.
    public static func end(of start: Date, days: Int, in zone: TimeZone) -> Date {
        let date = LocalDate(start, in: zone).adding(days: days)
        let seconds = CivilCalendar.day(ofSeconds: CivilCalendar.wallClockSeconds(start, in: zone)).second
        let time = LocalTime(minutesSinceMidnight: seconds / 60)
        return date.instant(at: time, in: zone)?.addingTimeInterval(Double(seconds % 60))
            ?? start.addingTimeInterval(Double(days) * 86_400)
    }

    /// The creator's filter fields over the preset's: each one given replaces the preset's.
    static func merged(_ given: ChallengeRule.Filter, over base: ChallengeRule.Filter) -> ChallengeRule.Filter {
        ChallengeRule.Filter(
            workoutTypes: given.workoutTypes ?? base.workoutTypes,
            startsAfter: given.startsAfter ?? base.startsAfter,
            startsBefore: given.startsBefore ?? base.startsBefore,
            minDurationMinutes: given.minDurationMinutes ?? base.minDurationMinutes,
            maxDurationMinutes: given.maxDurationMinutes ?? base.maxDurationMinutes,
            weekendsOnly: given.weekendsOnly || base.weekendsOnly,
            minDistanceKm: given.minDistanceKm ?? base.minDistanceKm
        )
    }
}
