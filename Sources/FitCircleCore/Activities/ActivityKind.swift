/// What a raw input records.
public enum ActivityKind: String, CaseIterable, Equatable, Sendable, Codable {
    /// A day's step total from a health-data sync (or a manual entry).
    case steps
    case weight
    case workout
    case water
    case appOpen = "app_open"
    /// The daily check-in; only `POST /api/streaks/checkin` records it.
    case checkIn = "check_in"
}

/// Where an input came from. Synced totals (HealthKit, Google Fit, wearables) replace each other;
/// manual entries are kept apart and combined as the rule profile says.
public enum ActivitySource: String, CaseIterable, Equatable, Sendable, Codable {
    case healthkit
    case googleFit = "google_fit"
    case manual
    case wearable
    case app

    /// Health-data sources report running totals: the newest reading wins instead of adding up.
    public var isSyncedTotal: Bool {
        switch self {
        case .healthkit, .googleFit, .wearable: true
        case .manual, .app: false
        }
    }
}

/// The kinds of workout FitCircle knows.
public enum WorkoutType: String, CaseIterable, Equatable, Sendable, Codable {
    case walking, running, cycling, strength, pushups, other
}
