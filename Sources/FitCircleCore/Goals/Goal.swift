public import Foundation

/// A daily or weekly target. Its progress is never stored: it is read from the user's days, so it follows
/// the activity ledger (late syncs, deletions) by itself. `completedAt` closes the goal the first time
/// it is seen met.
public struct Goal: Equatable, Sendable, Identifiable {
    public typealias ID = Identifier<Goal>

    public enum Span: String, CaseIterable, Equatable, Sendable, Codable {
        case daily, weekly
    }

    public enum Kind: String, CaseIterable, Equatable, Sendable, Codable {
        case steps, weight
        case checkIn = "check_in"
        case workout, water, pushups
        case activeDays = "active_days"
    }

    public var id: ID
    public var span: Span
    /// The day, or the week's first day.
    public var period: LocalDate
    public var kind: Kind
    public var target: Double
    /// How the target was planned, in words ("average of 6 days with data, 7,727, + 10 %").
    public var basis: String
    public var completedAt: Date?

    public init(
        id: ID,
        span: Span,
        period: LocalDate,
        kind: Kind,
        target: Double,
        basis: String,
        completedAt: Date? = nil
    ) {
        self.id = id
        self.span = span
        self.period = period
        self.kind = kind
        self.target = target
        self.basis = basis
        self.completedAt = completedAt
    }

    /// What the goal's days add up to. `days` are the stored days of the goal's period; a weight goal
    /// counts the kilograms lost from `weightBefore` (where the member stood as the period began) to the
    /// period's latest weight, nothing when either is unknown or weight was gained.
    public func progress(in days: [DailyTracking], activeDayMinimumSteps: Int, weightBefore: Double? = nil) -> Double {
        switch self.kind {
        case .steps: Double(days.reduce(0) { $0 + $1.steps })
        case .weight:
            if let before = weightBefore,
                let latest = days.sorted(by: { $0.date < $1.date }).compactMap(\.weightKg).last
            {
                max(0, WeightLossPace.lost(from: before, to: latest))
            } else {
                0
            }
        case .checkIn: Double(days.filter(\.checkedIn).count)
        case .workout: Double(days.reduce(0) { $0 + $1.workouts })
        case .water: days.reduce(0) { $0 + $1.waterMilliliters }
        case .pushups: Double(days.reduce(0) { $0 + $1.pushupReps })
        case .activeDays: Double(days.filter { $0.steps >= activeDayMinimumSteps }.count)
        }
    }
}
