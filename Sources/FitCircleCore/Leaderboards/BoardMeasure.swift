/// What a board's values are (spec 000, Feature 3's table): steps on step circles, the streak on check-in
/// circles; on weight-loss circles the daily board ranks the share of each member's goal reached, the
/// weekly board the share of the week's weight-loss target lost this week, the monthly board the kilograms
/// lost this month and the all-time board the kilograms lost since joining.
public enum BoardMeasure: String, CaseIterable, Equatable, Sendable, Codable {
    case steps
    /// `(starting − current) / (starting − target) × 100`.
    case goalPercent = "goal_percent"
    /// Kilograms lost this week against the week's target (`WeightLossPace.weeklyKg`), × 100.
    case weeklyTargetPercent = "weekly_target_percent"
    /// Kilograms lost over the period: from the weight the period starts at (all-time: since joining).
    case kilogramsLost = "kg_lost"
    case streakDays = "streak_days"

    public static func of(_ metric: FitCircle.Metric, _ period: BoardPeriod) -> BoardMeasure {
        switch metric {
        case .steps: .steps
        case .checkinStreak: .streakDays
        case .weightLossPct:
            switch period {
            case .daily: .goalPercent
            case .weekly: .weeklyTargetPercent
            case .monthly, .allTime: .kilogramsLost
            }
        }
    }

    /// Whether a value tells something of a member's weight: then it is shown only where their weight
    /// audience allows (`ProfileAccess.mayViewWeightLost`), and as a share of their goal elsewhere.
    public var revealsWeight: Bool { self == .kilogramsLost }
}
