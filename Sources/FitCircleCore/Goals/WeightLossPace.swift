/// The pace a weight-loss circle asks of a member (spec 000, Features 1 and 2): what is left to lose,
/// spread over the weeks the circle has left.
public enum WeightLossPace {
    /// An open-ended circle has no weeks remaining to spread over: it asks a steady half kilogram a week
    /// (about a pound, within F1's 0.1–0.3 lb a day).
    public static let openEndedWeeklyKg = 0.5

    /// Kilograms to lose in the week starting `weekStart`: `(weight − target) / weeks remaining`, the weight
    /// being where the member stands as the week begins and the weeks counted from this one to the circle's
    /// last day (a part week counts whole); at most what is left; 0 once the target is reached. To 10 g.
    public static func weeklyKg(from weight: Double, to target: Double, weekStart: LocalDate, circleEnd: LocalDate?) -> Double {
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

    /// The day's share of the week's target (F1: "pro-rata of weekly FitCircle weight loss target").
    public static func dailyKg(weekly: Double) -> Double { Self.grams10(weekly / 7) }

    /// Kilograms lost from `reference` to `current`, to 10 g (negative when gained).
    public static func lost(from reference: Double, to current: Double) -> Double { Self.grams10(reference - current) }

    static func grams10(_ kilograms: Double) -> Double { (kilograms * 100).rounded() / 100 }
}
