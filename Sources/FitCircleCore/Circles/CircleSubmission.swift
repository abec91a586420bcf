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
    /// The member's check-in streak when they claimed the day.
    public var checkinStreak: Int
    public var submittedAt: Date
    /// When the value the circle ranks by last changed: a claim made again with a new weight leaves a steps
    /// circle's claim as reached before.
    public var updatedAt: Date
    /// Where the member stood on the circle's weekly board after the claim, and how many places that moved
    /// them (positive: up).
    public var rankAfter: Int?
    public var rankChange: Int?

    public init(
        circleID: FitCircle.ID,
        userID: User.ID,
        date: LocalDate,
        steps: Int,
        weightKg: Double?,
        checkinStreak: Int,
        submittedAt: Date,
        updatedAt: Date,
        rankAfter: Int? = nil,
        rankChange: Int? = nil
    ) {
        self.circleID = circleID
        self.userID = userID
        self.date = date
        self.steps = steps
        self.weightKg = weightKg
        self.checkinStreak = checkinStreak
        self.submittedAt = submittedAt
        self.updatedAt = updatedAt
        self.rankAfter = rankAfter
        self.rankChange = rankChange
    }

    /// What the claim gives a circle ranking by `metric`; nil when it gives nothing (no weight).
    public func value(for metric: FitCircle.Metric) -> Double? {
        switch metric {
        case .steps: Double(self.steps)
        case .weightLossPct: self.weightKg
        case .checkinStreak: Double(self.checkinStreak)
        }
    }

    /// The same claim made again at `now` with what the ledger says now; `updatedAt` moves only when the
    /// circle's own value changed. Nil when nothing at all changed (a replay).
    public func reclaimed(steps: Int, weightKg: Double?, checkinStreak: Int, metric: FitCircle.Metric, at now: Date)
        -> CircleSubmission?
    {
        var claim = self
        (claim.steps, claim.weightKg, claim.checkinStreak) = (steps, weightKg, checkinStreak)
        guard claim != self else { return nil }
        if claim.value(for: metric) != self.value(for: metric) { claim.updatedAt = now }
        return claim
    }
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
        if date > today {
            throw ValidationError(field: "date", reason: "must not be after today (\(today.iso) where you are)")
        }
        let closes = date.adding(days: 1).start(in: zone).addingTimeInterval(Self.grace)
        guard now < closes else {
            throw DomainError.refused(
                Refusal(.periodClosed, "The day \(date.iso) is locked: its submissions closed at 00:30 the next day.")
            )
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
