public import Foundation

/// A member's standing on one board, derived from their claims alone, so the database, a replay and every
/// node agree on it (ties included).
public enum BoardScore {
    /// The member's value on the board of `period` starting `start`, and the instant they reached it, from
    /// `claims` (all of theirs to the circle, any order: a weight board looks back at the weight the period
    /// starts from); nil when no claim of the period counts. The value is the board's `BoardMeasure`:
    /// - steps: the period's sum, reached when a claim last changed;
    /// - goal percent: at the weight of the period's latest claimed day with one, to a tenth;
    /// - weekly-target percent: lost since the week began (the latest weight claimed before it, else the
    ///   starting weight) against `WeightLossPace.weeklyKg`, to a tenth (100 once the target is reached);
    /// - kilograms lost: from that same reference (all-time: the starting weight), to 10 g;
    /// - streak days: the streak of the period's latest claimed day.
    public static func score(
        _ metric: FitCircle.Metric,
        on period: BoardPeriod,
        startingOn start: LocalDate,
        claims all: [CircleSubmission],
        membership: CircleMembership?,
        circleEnd: LocalDate?
    ) -> (value: Double, reachedAt: Date)? {
        let claims = all.filter { period.holds($0.date, startingOn: start) }
        switch BoardMeasure.of(metric, period) {
        case .steps:
            guard let last = claims.map(\.updatedAt).max() else { return nil }
            return (Double(claims.reduce(0) { $0 + $1.steps }), last)
        case .streakDays:
            guard let latest = claims.max(by: { $0.date < $1.date }) else { return nil }
            return (Double(latest.checkinStreak), latest.updatedAt)
        case .goalPercent, .weeklyTargetPercent, .kilogramsLost:
            guard let latest = claims.filter({ $0.weightKg != nil }).max(by: { $0.date < $1.date }),
                let current = latest.weightKg,
                let starting = membership?.startingWeightKg, let target = membership?.targetWeightKg, starting > target
            else { return nil }
            let reference =
                all.filter { $0.date < start && $0.weightKg != nil }.max { $0.date < $1.date }?.weightKg ?? starting
            let value: Double
            switch BoardMeasure.of(metric, period) {
            case .weeklyTargetPercent:
                let weekly = WeightLossPace.weeklyKg(
                    from: reference,
                    to: target,
                    weekStart: start,
                    circleEnd: circleEnd
                )
                value = weekly > 0 ? Self.tenth((reference - current) / weekly * 100) : (current <= target ? 100 : 0)
            case .kilogramsLost:
                value = WeightLossPace.lost(from: period == .allTime ? starting : reference, to: current)
            default:
                value = Self.tenth((starting - current) / (starting - target) * 100)
            }
            return (value, latest.updatedAt)
        }
    }

    /// A share of a member's whole goal, to a tenth of a percent, for kilograms lost on a board whose
    /// kilograms the viewer may not see.
    public static func goalPercent(ofKilogramsLost kilograms: Double, membership: CircleMembership?) -> Double? {
        guard let starting = membership?.startingWeightKg, let target = membership?.targetWeightKg, starting > target
        else { return nil }
        return Self.tenth(kilograms / (starting - target) * 100)
    }

    static func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
