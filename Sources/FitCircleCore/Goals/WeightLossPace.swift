/// The pace a weight-loss circle asks of a member (spec 000, Features 1 and 2): what is left to lose,
/// spread over the weeks the circle has left.
public enum WeightLossPace {
    /// An open-ended circle has no weeks remaining to spread over: it asks a steady half kilogram a week
    /// (about a pound, within F1's 0.1–0.3 lb a day).
    public static let openEndedWeeklyKg = 0.5

    /// Kilograms to lose in the week starting `weekStart`: `(weight − target) / weeks remaining`, the weight
    /// being where the member stands as the week begins and the weeks counted from this one to the circle's
    /// last day (a part week counts whole); at most what is left; 0 once the target is reached. To 10 g.
    public static func weeklyKg(from weight: Double, to target: Double, weekStart: LocalDate, circleEnd: LocalDate?)
        -> Double
    {
        let left = weight - target
        guard left.isFinite, left > 0 else { return 0 }
        let weekly: Double
        if let weeks = FitCircle.weeksRemaining(from: weekStart, to: circleEnd) {
            weekly = left / Double(weeks)
        } else {
            weekly = min(left, Self.openEndedWeeklyKg)
        }
        return Self.grams10(weekly)
    }

    /// F1's bounds on a day's weight goal, "daily target: -0.1 to -0.3 lbs", in kilograms to 10 g within
    /// them (0.05 kg ≈ 0.11 lb, 0.13 kg ≈ 0.29 lb).
    public static let dailyRangeKg = 0.05...0.13

    /// The day's share of the week's target (F1: "pro-rata of weekly FitCircle weight loss target"),
    /// within `dailyRangeKg`; 0 once nothing is left to lose.
    public static func dailyKg(weekly: Double) -> Double {
        guard weekly > 0 else { return 0 }
        return min(max(Self.grams10(weekly / 7), Self.dailyRangeKg.lowerBound), Self.dailyRangeKg.upperBound)
    }

    /// Kilograms lost from `reference` to `current`, to 10 g (negative when gained).
    public static func lost(from reference: Double, to current: Double) -> Double { Self.grams10(reference - current) }

    static func grams10(_ kilograms: Double) -> Double { (kilograms * 100).rounded() / 100 }
}
