/// One badge of the profile's catalog: unlocked once, when its requirement holds on the user's counters.
public struct Badge: Equatable, Sendable, Codable, Identifiable {
    public var id: String
    public var name: String
    public var description: String
    public var icon: String
    public var category: Category
    public var rarity: Rarity
    public var requirement: Requirement
    /// Points credited on unlock (a ledger line with reason `badge`).
    public var xp: Int

    public init(
        id: String,
        name: String,
        description: String,
        icon: String,
        category: Category,
        rarity: Rarity,
        requirement: Requirement,
        xp: Int
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.icon = icon
        self.category = category
        self.rarity = rarity
        self.requirement = requirement
        self.xp = xp
    }

    public enum Category: String, Equatable, Sendable, Codable, CaseIterable {
        case participation, victory, specialty, social, streak
    }

    public enum Rarity: String, Equatable, Sendable, Codable, CaseIterable {
        case common, uncommon, rare, epic, legendary
    }

    /// Every condition must hold: `{counter, atLeast}` in the profile, or `{all: [...]}` for several.
    public struct Requirement: Equatable, Sendable, Codable {
        public var all: [Condition]

        public init(all: [Condition]) {
            self.all = all
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if container.contains(.all) {
                self.all = try container.decode([Condition].self, forKey: .all)
            } else {
                self.all = [try Condition(from: decoder)]
            }
        }

        public func encode(to encoder: any Encoder) throws {
            if self.all.count == 1 {
                try self.all[0].encode(to: encoder)
            } else {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(self.all, forKey: .all)
            }
        }

        private enum CodingKeys: String, CodingKey { case all }
    }

    public struct Condition: Equatable, Sendable, Codable {
        public var counter: Counter
        public var atLeast: Int

        public init(counter: Counter, atLeast: Int) {
            self.counter = counter
            self.atLeast = atLeast
        }
    }

    /// What badges count. Those of challenges (spec 002) are kept by the challenges module; until it
    /// exists they stay at zero, but the catalog can already name them.
    public enum Counter: String, Equatable, Hashable, Sendable, Codable, CaseIterable {
        /// The longest streak reached, in the streak's periods (days or weeks).
        case streak
        case checkIns = "check_ins"
        /// Push-up series recorded with at least one counted rep.
        case series
        /// Counted push-ups.
        case pushups
        case workouts
        /// Daily and weekly goals met.
        case goalsMet = "goals_met"
        case weeklyChallenges = "weekly_challenges"
        case level
        case points
        case challengesCompleted = "challenges_completed"
        case challengesWon = "challenges_won"
        case challengeWinStreak = "challenge_win_streak"
        case comebackWins = "comeback_wins"
        case higherLevelWins = "higher_level_wins"
        case distanceWins = "distance_wins"
        case durationWins = "duration_wins"
        case calorieWins = "calorie_wins"
        case xpWins = "xp_wins"
        case workoutCountWins = "workout_count_wins"
        case specificWorkoutWins = "specific_workout_wins"
        case largestStakeWon = "largest_stake_won"
        case lastPlaceWins = "last_place_wins"
        case photoFinishWins = "photo_finish_wins"
        case mostChallengesWithOnePerson = "most_challenges_with_one_person"
        case opponents
        case challengesCreated = "challenges_created"
        case challengeParticipantsHosted = "challenge_participants_hosted"
    }

    /// 0…1: the mean of each condition's share of its threshold.
    public func progress(_ counters: [Counter: Int]) -> Double {
        guard !self.requirement.all.isEmpty else { return 1 }
        let shares = self.requirement.all.map { condition in
            min(1, Double(max(0, counters[condition.counter] ?? 0)) / Double(max(1, condition.atLeast)))
        }
        return shares.reduce(0, +) / Double(shares.count)
    }

    public func isMet(by counters: [Counter: Int]) -> Bool {
        self.requirement.all.allSatisfy { (counters[$0.counter] ?? 0) >= $0.atLeast }
    }
}
