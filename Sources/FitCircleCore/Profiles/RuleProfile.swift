/// An app's policies in one value, read from `profiles/<name>.yaml`: the code implements every
/// variant the specs describe and the rule profile picks one.
public struct RuleProfile: Equatable, Sendable, Codable {
    public var name: String
    public var description: String
    public var onboarding: Onboarding
    public var week: Week
    public var units: Units
    public var limits: Limits
    public var activities: Activities
    public var streaks: StreakPolicy
    public var goals: GoalPolicy
    public var rewards: RewardPolicy
    public var notifications: NotificationCatalog
    /// The app's challenge templates (spec 002 §1); absent: none.
    public var challenges: ChallengeCatalog?
    /// The app's own analytics events and what each may carry (issue 24); absent: none.
    public var events: [String: EventSchema]?

    public init(
        name: String,
        description: String,
        onboarding: Onboarding,
        week: Week,
        units: Units,
        limits: Limits,
        activities: Activities,
        streaks: StreakPolicy,
        goals: GoalPolicy,
        rewards: RewardPolicy,
        notifications: NotificationCatalog,
        challenges: ChallengeCatalog? = nil,
        events: [String: EventSchema]? = nil
    ) {
        self.name = name
        self.description = description
        self.onboarding = onboarding
        self.week = week
        self.units = units
        self.limits = limits
        self.activities = activities
        self.streaks = streaks
        self.goals = goals
        self.rewards = rewards
        self.notifications = notifications
        self.challenges = challenges
        self.events = events
    }

    /// The catalog's templates (none when the profile has no `challenges` section).
    public var challengeTemplates: [ChallengeTemplate] { self.challenges?.templates ?? [] }

    /// The app's event schemas (none when the profile has no `events` section).
    public var eventSchemas: [String: EventSchema] { self.events ?? [:] }

    /// How raw activity becomes a day.
    public struct Activities: Equatable, Sendable, Codable {
        /// How manual step entries combine with synced totals.
        public var manualSteps: DailyTracking.ManualSteps
        /// Who sees a new activity when the client does not say (spec 004, R11.3).
        public var defaultVisibility: ActivityVisibility
        /// The reactions friends may leave on an activity (spec 004, R7.4).
        public var reactions: [String]

        public static let defaultReactions = ["👍", "🔥", "💪"]

        public init(
            manualSteps: DailyTracking.ManualSteps,
            defaultVisibility: ActivityVisibility = .friends,
            reactions: [String] = Self.defaultReactions
        ) {
            self.manualSteps = manualSteps
            self.defaultVisibility = defaultVisibility
            self.reactions = reactions
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.manualSteps = try container.decode(DailyTracking.ManualSteps.self, forKey: .manualSteps)
            self.defaultVisibility =
                try container.decodeIfPresent(ActivityVisibility.self, forKey: .defaultVisibility) ?? .friends
            self.reactions = try container.decodeIfPresent([String].self, forKey: .reactions) ?? Self.defaultReactions
        }
    }

    /// Whether a new user must complete their profile before using the rest of the API.
    public struct Onboarding: Equatable, Sendable, Codable {
        /// `true`: every endpoint but sign-in, configuration and the profile answers `onboarding-required`
        /// until the profile is complete. `false`: the profile starts from `defaults` and may be completed later.
        public var required: Bool
        /// The values a user who skips onboarding starts with.
        public var defaults: Defaults

        public init(required: Bool, defaults: Defaults) {
            self.required = required
            self.defaults = defaults
        }

        public struct Defaults: Equatable, Sendable, Codable {
            public var timeZone: String
            public var age: Int?
            public var weightKg: Double?

            public init(timeZone: String, age: Int? = nil, weightKg: Double? = nil) {
                self.timeZone = timeZone
                self.age = age
                self.weightKg = weightKg
            }
        }
    }

    /// How weeks are counted in the user's own time zone.
    public struct Week: Equatable, Sendable, Codable {
        public var startsOn: Weekday

        public init(startsOn: Weekday) {
            self.startsOn = startsOn
        }
    }

    /// The units an app shows by default; every value is stored in metric.
    public struct Units: Equatable, Sendable, Codable {
        public var weight: WeightUnit
        public var height: HeightUnit
        public var distance: DistanceUnit

        public init(weight: WeightUnit, height: HeightUnit, distance: DistanceUnit) {
            self.weight = weight
            self.height = height
            self.distance = distance
        }
    }

    /// Plausible ranges for what users tell about themselves.
    public struct Limits: Equatable, Sendable, Codable {
        public var age: ClosedRange<Int>
        public var weightKg: ClosedRange<Double>
        public var heightCm: ClosedRange<Double>

        public init(age: ClosedRange<Int>, weightKg: ClosedRange<Double>, heightCm: ClosedRange<Double>) {
            self.age = age
            self.weightKg = weightKg
            self.heightCm = heightCm
        }

        enum CodingKeys: String, CodingKey { case age, weightKg, heightCm }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.age = try container.decode(Bounds<Int>.self, forKey: .age).range(
                codingPath: container.codingPath + [CodingKeys.age]
            )
            self.weightKg = try container.decode(Bounds<Double>.self, forKey: .weightKg)
                .range(codingPath: container.codingPath + [CodingKeys.weightKg])
            self.heightCm = try container.decode(Bounds<Double>.self, forKey: .heightCm)
                .range(codingPath: container.codingPath + [CodingKeys.heightCm])
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Bounds(min: self.age.lowerBound, max: self.age.upperBound), forKey: .age)
            try container.encode(
                Bounds(min: self.weightKg.lowerBound, max: self.weightKg.upperBound),
                forKey: .weightKg
            )
            try container.encode(
                Bounds(min: self.heightCm.lowerBound, max: self.heightCm.upperBound),
                forKey: .heightCm
            )
        }
    }
}

/// `{min, max}` as written in a profile file.
private struct Bounds<Value: Comparable & Codable>: Codable {
    var min: Value
    var max: Value

    func range(codingPath: [any CodingKey]) throws -> ClosedRange<Value> {
        guard self.min <= self.max else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath,
                    debugDescription: "expected min (\(self.min)) to be at most max (\(self.max))"
                )
            )
        }
        return self.min...self.max
    }
}
