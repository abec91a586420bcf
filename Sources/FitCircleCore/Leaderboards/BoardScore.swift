public import Foundation

/// A member's standing on one board, derived from their claims of the period alone, so the database, a
/// replay and every node agree on it (ties included).
public enum BoardScore {
    /// The member's value and the instant they reached it, from their `claims` of the period (any order);
    /// nil when none counts.
    /// - steps: the sum, reached when a claim last changed;
    /// - weight_loss_pct: `(starting − current) / (starting − target) × 100` (spec 000) at the weight of
    ///   the latest claimed day with one, rounded to a tenth;
    /// - checkin_streak: the streak of the latest claimed day.
    public static func score(_ metric: FitCircle.Metric, claims: [CircleSubmission], membership: CircleMembership?) -> (value: Double, reachedAt: Date)? {
        switch metric {
        case .steps:
            guard let last = claims.map(\.updatedAt).max() else { return nil }
            return (Double(claims.reduce(0) { $0 + $1.steps }), last)
        case .weightLossPct:
            guard let latest = claims.filter({ $0.weightKg != nil }).max(by: { $0.date < $1.date }), let current = latest.weightKg,
                let starting = membership?.startingWeightKg, let target = membership?.targetWeightKg, starting != target
            else { return nil }
            return (((starting - current) / (starting - target) * 1_000).rounded() / 10, latest.updatedAt)
        case .checkinStreak:
            guard let latest = claims.max(by: { $0.date < $1.date }) else { return nil }
            return (Double(latest.checkinStreak), latest.updatedAt)
        }
    }
}
