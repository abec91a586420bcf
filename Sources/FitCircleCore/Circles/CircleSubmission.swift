public import Foundation

/// A member's claim of a day's data to a circle (spec 000, Feature 5): synced data counts on the circle's
/// boards only once claimed. One per circle, member and local date; submitting again updates it.
public struct CircleSubmission: Equatable, Sendable {
    public var circleID: FitCircle.ID
    public var userID: User.ID
    /// The member's local date; it counts to the circle's day with the same calendar date.
    public var date: LocalDate
    public var steps: Int
    public var weightKg: Double?
    public var submittedAt: Date
    public var updatedAt: Date

    public init(circleID: FitCircle.ID, userID: User.ID, date: LocalDate, steps: Int, weightKg: Double?, submittedAt: Date, updatedAt: Date) {
        self.circleID = circleID
        self.userID = userID
        self.date = date
        self.steps = steps
        self.weightKg = weightKg
        self.submittedAt = submittedAt
        self.updatedAt = updatedAt
    }

    /// Whether a new claim of the same day says something else.
    public func differs(steps: Int, weightKg: Double?) -> Bool { self.steps != steps || self.weightKg != weightKg }
}

/// When a day can still be claimed: until 23:59 that day where the user is, and 30 minutes into the next
/// (spec 000: "until 12:30 AM for users in different timezones"); then it is locked.
public enum SubmissionWindow {
    public static let grace: TimeInterval = 30 * 60

    /// The day a submission at `now` claims: `requested`, or today. A future day is invalid; a day whose
    /// window closed is locked (a conflict that says when it closed).
    public static func day(_ requested: LocalDate?, now: Date, in zone: TimeZone) throws -> LocalDate {
        let today = LocalDate(now, in: zone)
        let date = requested ?? today
        if date > today { throw ValidationError(field: "date", reason: "must not be after today (\(today.iso) where you are)") }
        let closes = date.adding(days: 1).start(in: zone).addingTimeInterval(Self.grace)
        guard now < closes else {
            throw DomainError.conflict(reason: "The day \(date.iso) is locked: its submissions closed at 00:30 the next day.")
        }
        return date
    }
}

/// "just now", "5 minutes ago", "2 hours ago", "3 days ago".
public enum RelativeTime {
    public static func ago(_ instant: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(instant)))
        func phrase(_ count: Int, _ unit: String) -> String { "\(count) \(unit)\(count == 1 ? "" : "s") ago" }
        switch seconds {
        case ..<60: return "just now"
        case ..<3_600: return phrase(seconds / 60, "minute")
        case ..<86_400: return phrase(seconds / 3_600, "hour")
        default: return phrase(seconds / 86_400, "day")
        }
    }
}
