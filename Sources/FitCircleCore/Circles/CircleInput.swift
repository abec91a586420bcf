public import Foundation

/// A circle as a client creates or edits it, before validation.
public struct CircleInput: Equatable, Sendable {
    public var name: String
    public var description: String?
    public var metric: FitCircle.Metric
    public var startDate: LocalDate?
    public var endDate: LocalDate?
    public var timeZone: String?
    public var privacy: FitCircle.Privacy?
    public var memberLimit: Int?
    public var stepGoal: Int?

    public static let memberLimits = 2...100_000
    public static let stepGoals = 1_000...10_000_000
    public static let defaultMemberLimit = 100

    public init(
        name: String,
        description: String? = nil,
        metric: FitCircle.Metric,
        startDate: LocalDate? = nil,
        endDate: LocalDate? = nil,
        timeZone: String? = nil,
        privacy: FitCircle.Privacy? = nil,
        memberLimit: Int? = nil,
        stepGoal: Int? = nil
    ) {
        self.name = name
        self.description = description
        self.metric = metric
        self.startDate = startDate
        self.endDate = endDate
        self.timeZone = timeZone
        self.privacy = privacy
        self.memberLimit = memberLimit
        self.stepGoal = stepGoal
    }

    /// The fields as they will be stored, when every one is valid: the name and description trimmed, the
    /// zone defaulting to `defaultTimeZone`, the start to the zone's `today`, private and 100 members by default.
    public func validated(defaultTimeZone: String, now: Date) throws(ValidationError) -> Valid {
        var validator = Validator()
        let name = validator.text(self.name, "name", .circleName) ?? ""
        let description = self.description.flatMap { validator.text($0, "description", .description) }
        let zone = self.timeZone.map { TimeZoneID.validated($0) } ?? defaultTimeZone
        validator.check(zone != nil, "timeZone", "must be an IANA time-zone identifier such as Europe/Paris")
        let today = LocalDate(now, in: TimeZone(identifier: zone ?? defaultTimeZone) ?? .gmt)
        let start = self.startDate ?? today
        if let end = self.endDate {
            validator.check(end >= start, "endDate", "must be on or after startDate (\(start.iso))")
            validator.check(
                end >= today,
                "endDate",
                "must not be in the past (today is \(today.iso) in the circle's zone)"
            )
        }
        let limit = self.memberLimit ?? Self.defaultMemberLimit
        validator.check(Self.memberLimits.contains(limit), "memberLimit", "must be between 2 and 100000")
        if let goal = self.stepGoal {
            validator.check(self.metric == .steps, "stepGoal", "is for step circles only")
            validator.check(Self.stepGoals.contains(goal), "stepGoal", "must be between 1000 and 10000000 steps")
            validator.check(
                self.endDate != nil,
                "stepGoal",
                "needs an endDate: the goal is spread over the competition's weeks"
            )
        }
        try validator.throwIfInvalid()
        guard let zone else {
            throw ValidationError(
                field: "timeZone",
                reason: "must be an IANA time-zone identifier such as Europe/Paris"
            )
        }
        return Valid(
            name: name,
            description: description?.isEmpty == true ? nil : description,
            metric: self.metric,
            startDate: start,
            endDate: self.endDate,
            timeZone: zone,
            privacy: self.privacy ?? .private,
            memberLimit: limit,
            stepGoal: self.stepGoal
        )
    }

    /// A validated circle's fields.
    public struct Valid: Equatable, Sendable {
        public var name: String
        public var description: String?
        public var metric: FitCircle.Metric
        public var startDate: LocalDate
        public var endDate: LocalDate?
        public var timeZone: String
        public var privacy: FitCircle.Privacy
        public var memberLimit: Int
        public var stepGoal: Int?
    }
}

/// A member's weights for a weight-loss circle, as the client sends them when creating or joining.
public struct WeightGoalInput: Equatable, Sendable {
    public var startingWeightKg: Double?
    public var targetWeightKg: Double?

    public init(startingWeightKg: Double? = nil, targetWeightKg: Double? = nil) {
        self.startingWeightKg = startingWeightKg
        self.targetWeightKg = targetWeightKg
    }

    /// The weights to store: none for other metrics; for weight loss a target below the start, the start
    /// defaulting to the profile's weight.
    public func validated(
        for metric: FitCircle.Metric,
        profileWeightKg: Double?,
        limits: ClosedRange<Double>
    ) throws(ValidationError) -> (starting: Double?, target: Double?) {
        guard metric == .weightLossPct else { return (nil, nil) }
        var validator = Validator()
        let starting = self.startingWeightKg ?? profileWeightKg
        let range = "\(Int(limits.lowerBound.rounded()))–\(Int(limits.upperBound.rounded())) kg"
        validator.check(
            starting.map { $0.isFinite && limits.contains($0) } ?? false,
            "startingWeightKg",
            "must be given (no weight in the profile) and within \(range)"
        )
        if let target = self.targetWeightKg {
            validator.check(target.isFinite && limits.contains(target), "targetWeightKg", "must be within \(range)")
            validator.check(starting.map { target < $0 } ?? true, "targetWeightKg", "must be below the starting weight")
        } else {
            validator.fail("targetWeightKg", "is required in a weight-loss circle")
        }
        try validator.throwIfInvalid()
        return (starting, self.targetWeightKg)
    }
}
