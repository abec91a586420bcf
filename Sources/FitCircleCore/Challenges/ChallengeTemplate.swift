public import Foundation

/// A ready-made challenge in the rule profile's catalog (spec 002 §1): a preset with its numbers, a
/// category and tags, a suggested stake, and for seasonal ones the months it is offered in. A challenge
/// made from it keeps the template's id and version, so a later edit of the catalog changes no challenge.
public struct ChallengeTemplate: Equatable, Sendable, Codable {
    public enum Category: String, CaseIterable, Equatable, Sendable, Codable {
        case popular, seasonal, beginner, advanced
    }

    /// The months a seasonal template is offered in, and the day its challenges start by default.
    public struct Season: Equatable, Sendable, Codable {
        /// 1–12.
        public var months: [Int]
        /// The month and day ("01-01") its challenges start on.
        public var startsOn: String

        public init(months: [Int], startsOn: String) {
            self.months = months
            self.startsOn = startsOn
        }

        public var start: (month: Int, day: Int)? {
            let parts = self.startsOn.split(separator: "-")
            guard parts.count == 2, let month = Int(parts[0]), let day = Int(parts[1]), (1...12).contains(month),
                (1...31).contains(day)
            else { return nil }
            return (month, day)
        }

        /// Where a challenge made now starts: the season's next start day at 00:00 in `zone` when it is at
        /// most 45 days away (made ahead of the season), else now (made during it).
        public func defaultStart(now: Date, in zone: TimeZone) -> Date {
            let today = LocalDate(now, in: zone)
            guard let start = self.start else { return now }
            for year in [today.year, today.year + 1] {
                if let day = LocalDate(year: year, month: start.month, day: start.day), day > today {
                    return day.days(since: today) <= 45 ? day.start(in: zone) : now
                }
            }
            return now
        }
    }

    public var id: String
    public var version: Int
    public var name: String
    public var description: String
    public var icon: String
    public var category: Category
    public var tags: [String]
    public var type: ChallengeType
    /// For `custom` templates: what the preset's rule measures and how, instead.
    public var metric: ChallengeRule.Metric?
    public var aggregation: ChallengeRule.Aggregation?
    public var goal: ChallengeRule.Goal
    public var target: Double?
    /// For `weeks_met`: what a week must reach.
    public var weeklyTarget: Double?
    public var durationDays: Int
    public var suggestedStake: Int
    public var filter: ChallengeRule.Filter
    public var season: Season?

    public init(
        id: String,
        version: Int,
        name: String,
        description: String,
        icon: String,
        category: Category,
        tags: [String],
        type: ChallengeType,
        metric: ChallengeRule.Metric? = nil,
        aggregation: ChallengeRule.Aggregation? = nil,
        goal: ChallengeRule.Goal,
        target: Double?,
        weeklyTarget: Double? = nil,
        durationDays: Int,
        suggestedStake: Int,
        filter: ChallengeRule.Filter = .init(),
        season: Season? = nil
    ) {
        self.metric = metric
        self.aggregation = aggregation
        self.id = id
        self.version = version
        self.name = name
        self.description = description
        self.icon = icon
        self.category = category
        self.tags = tags
        self.type = type
        self.goal = goal
        self.target = target
        self.weeklyTarget = weeklyTarget
        self.durationDays = durationDays
        self.suggestedStake = suggestedStake
        self.filter = filter
        self.season = season
    }

    private enum CodingKeys: String, CodingKey {
        case id, version, name, description, icon, category, tags, type, metric, aggregation, goal, target,
            weeklyTarget, durationDays, suggestedStake, filter
        case season
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(String.self, forKey: .id)
        self.version = try container.decode(Int.self, forKey: .version)
        self.name = try container.decode(String.self, forKey: .name)
        self.description = try container.decode(String.self, forKey: .description)
        self.icon = try container.decodeIfPresent(String.self, forKey: .icon) ?? "trophy"
        self.category = try container.decode(Category.self, forKey: .category)
        self.tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        self.type = try container.decode(ChallengeType.self, forKey: .type)
        self.metric = try container.decodeIfPresent(ChallengeRule.Metric.self, forKey: .metric)
        self.aggregation = try container.decodeIfPresent(ChallengeRule.Aggregation.self, forKey: .aggregation)
        self.goal = try container.decodeIfPresent(ChallengeRule.Goal.self, forKey: .goal) ?? .most
        self.target = try container.decodeIfPresent(Double.self, forKey: .target)
        self.weeklyTarget = try container.decodeIfPresent(Double.self, forKey: .weeklyTarget)
        self.durationDays = try container.decode(Int.self, forKey: .durationDays)
        self.suggestedStake = try container.decodeIfPresent(Int.self, forKey: .suggestedStake) ?? 0
        self.filter = try container.decodeIfPresent(ChallengeRule.Filter.self, forKey: .filter) ?? .init()
        self.season = try container.decodeIfPresent(Season.self, forKey: .season)
    }

    /// The rule a challenge made from it starts from.
    public var rule: ChallengeRule {
        var rule = self.type.rule
        if let metric = self.metric { rule.metric = metric }
        if let aggregation = self.aggregation { rule.aggregation = aggregation }
        rule.goal = self.goal
        rule.target = self.target
        rule.weeklyTarget = self.weeklyTarget
        rule.filter = ChallengeInput.merged(self.filter, over: rule.filter)
        return rule
    }

    /// Whether it is offered on `today` (seasonal ones in their months only).
    public func isOffered(on today: LocalDate) -> Bool {
        self.season.map { $0.months.contains(today.month) } ?? true
    }
}

/// The rule profile's `challenges` section.
public struct ChallengeCatalog: Equatable, Sendable, Codable {
    public var templates: [ChallengeTemplate]

    public init(templates: [ChallengeTemplate]) {
        self.templates = templates
    }
}
