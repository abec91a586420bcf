public import Foundation

/// Something that happened in a circle, as its members' feed shows it (spec 000, Features 3 and 5).
public struct FeedItem: Equatable, Sendable, Codable {
    public typealias ID = Identifier<FeedItem>

    public enum Kind: String, CaseIterable, Equatable, Sendable, Codable {
        /// A claim of a day's data, with where it put the member.
        case submission
        case joined
        case streakMilestone = "streak_milestone"
        case badge
    }

    public var id: ID
    public var circleID: FitCircle.ID
    public var kind: Kind
    /// Whose news it is; encouragement goes to them.
    public var actorID: User.ID
    public var text: String
    /// The figures behind the text (the member's name, steps, rank, milestone, badge), for clients that lay it out themselves.
    public var data: [String: String]
    public var createdAt: Date

    public init(
        id: ID,
        circleID: FitCircle.ID,
        kind: Kind,
        actorID: User.ID,
        text: String,
        data: [String: String],
        createdAt: Date
    ) {
        self.id = id
        self.circleID = circleID
        self.kind = kind
        self.actorID = actorID
        self.text = text
        self.data = data
        self.createdAt = createdAt
    }
}

extension FeedItem {
    /// The item as it reads with its member named `name` now (a rename, or "A member" for a reader their
    /// board-name audience leaves out): every text starts with an emoji and the name it was written with,
    /// `data["name"]`, so that first occurrence is the one replaced.
    public func naming(_ name: String) -> FeedItem {
        var item = self
        guard let written = self.data["name"], written != name else { return item }
        if let range = self.text.range(of: written) { item.text.replaceSubrange(range, with: name) }
        item.data["name"] = name
        return item
    }
}

/// The words of feed items.
public enum FeedText {
    /// "🏃 Ana submitted 10,234 steps—now #1!": the rank is told when the claim took the member to #1, or
    /// from further down into the top 3 of the week.
    public static func submission(name: String, metric: FitCircle.Metric, value: Double, rank: Int?, previousRank: Int?)
        -> String
    {
        let what: String =
            switch metric {
            case .steps: "🏃 \(name) submitted \(NotificationCopy.count(Int(value))) steps"
            case .weightLossPct: "⚖️ \(name) weighed in at \(Self.percent(value)) of their goal"
            case .checkinStreak: "🔥 \(name) submitted a \(Int(value))-day check-in streak"
            }
        guard let rank, previousRank.map({ rank < $0 }) ?? true else { return what }
        if rank == 1 { return what + "—now #1!" }
        if rank <= 3, let previousRank, previousRank > 3 { return what + "—now in the top 3!" }
        return what
    }

    public static func joined(name: String) -> String { "👋 \(name) joined the circle" }

    public static func streakMilestone(name: String, days: Int) -> String { "🔥 \(name) reached a \(days)-day streak" }

    public static func badge(name: String, badge: String) -> String { "🏅 \(name) earned the \(badge) badge" }

    /// 10234, 12.5: a value as data carries it.
    public static func figure(_ value: Double) -> String { value == value.rounded() ? "\(Int(value))" : "\(value)" }

    static func percent(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))%" : String(format: "%.1f%%", value)
    }
}

/// A tap of encouragement on a feed item (spec 000: 1-tap, an optional preset message).
public enum Encouragement {
    public static let presets = [
        "💪 Great pace today!", "🔥 Great hustle today!", "👏 Keep it up!", "🚀 You're on fire!",
        "💪 You too—see you at the top tomorrow!",
    ]

    /// The message as kept (`TextRule.message`), nil when blank.
    public static func message(_ text: String?) throws -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        var validator = Validator()
        let message = validator.text(text, "message", .message)
        try validator.throwIfInvalid()
        return message
    }
}
