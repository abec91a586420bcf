import Foundation

/// A user's day as derived from the events of that local date. Never edited directly: it is recomputed
/// from the events, so any order or repetition of the same events gives the same day.
public struct DailyTracking: Equatable, Sendable, Codable {
    public var date: LocalDate
    /// The day's steps as counted: synced and manual combined by the rule profile.
    public var steps: Int
    /// The newest total of the health-data source that counted most.
    public var syncedSteps: Int
    /// The sum of manual step entries.
    public var manualSteps: Int
    /// The last weight of the day.
    public var weightKg: Double?
    public var workouts: Int
    public var activeMinutes: Double
    public var distanceMeters: Double
    public var calories: Double
    public var pushupReps: Int
    public var waterMilliliters: Double
    public var appOpened: Bool
    /// The day was checked in (spec 000, Feature 4).
    public var checkedIn: Bool
    /// The check-in arrived after the day had ended (a claim within the grace window).
    public var checkedInLate: Bool
    public var mood: Int?
    public var energy: Int?
    /// How the user felt about the day before, said in this day's check-in.
    public var previousDaySentiment: CheckIn.Sentiment?

    public init(
        date: LocalDate,
        steps: Int = 0,
        syncedSteps: Int = 0,
        manualSteps: Int = 0,
        weightKg: Double? = nil,
        workouts: Int = 0,
        activeMinutes: Double = 0,
        distanceMeters: Double = 0,
        calories: Double = 0,
        pushupReps: Int = 0,
        waterMilliliters: Double = 0,
        appOpened: Bool = false,
        checkedIn: Bool = false,
        checkedInLate: Bool = false,
        mood: Int? = nil,
        energy: Int? = nil,
        previousDaySentiment: CheckIn.Sentiment? = nil
    ) {
        self.date = date
        self.steps = steps
        self.syncedSteps = syncedSteps
        self.manualSteps = manualSteps
        self.weightKg = weightKg
        self.workouts = workouts
        self.activeMinutes = activeMinutes
        self.distanceMeters = distanceMeters
        self.calories = calories
        self.pushupReps = pushupReps
        self.waterMilliliters = waterMilliliters
        self.appOpened = appOpened
        self.checkedIn = checkedIn
        self.checkedInLate = checkedInLate
        self.mood = mood
        self.energy = energy
        self.previousDaySentiment = previousDaySentiment
    }

    /// How manual step entries combine with synced totals (a rule-profile setting).
    public enum ManualSteps: String, Equatable, Sendable, Codable {
        /// Manual entries add to the synced total (steps the phone did not see).
        case add
        /// The larger of the two counts (a manual entry corrects a low sync).
        case max
        /// Manual entries are recorded but do not count.
        case ignore
    }

    /// The day made of `events`, all of the same user and local date.
    ///
    /// Synced step totals are replaced, not summed: per source the reading with the latest `occurredAt` wins
    /// (ties: the larger client event id, so arrival order never matters), and across sources the largest, since a phone and a watch count the same
    /// walk. Distance, active minutes and calories take the larger of the synced totals and the workouts' sum.
    public static func summarize(_ events: [ActivityEvent], on date: LocalDate, manualSteps: ManualSteps)
        -> DailyTracking
    {
        var day = DailyTracking(date: date)
        var latestSynced: [ActivitySource: ActivityEvent] = [:]
        var latestWeight: ActivityEvent?
        var workoutDistance = 0.0
        var workoutMinutes = 0.0
        var workoutCalories = 0.0
        // A fixed order: floating-point sums then come out the same whatever order the events arrived in.
        for event in events.sorted(by: { $0.clientEventID < $1.clientEventID }) {
            switch event.payload {
            case .steps(let totals):
                if event.source.isSyncedTotal {
                    if let current = latestSynced[event.source], !Self.isNewer(event, than: current) { continue }
                    latestSynced[event.source] = event
                } else {
                    day.manualSteps += totals.steps
                }
            case .weight:
                if let current = latestWeight, !Self.isNewer(event, than: current) { continue }
                latestWeight = event
            case .workout(let workout):
                day.workouts += 1
                workoutDistance += workout.distanceMeters ?? 0
                workoutMinutes += workout.durationSeconds / 60
                workoutCalories += workout.calories ?? 0
                if workout.type == .pushups { day.pushupReps += workout.reps ?? 0 }
            case .water(let milliliters):
                day.waterMilliliters += milliliters
            case .appOpen:
                day.appOpened = true
            case .checkIn(let checkIn):
                // One check-in per day (its client id is the date); it is late when it arrived after the day.
                let late =
                    TimeZone(identifier: event.timeZone).map { event.receivedAt >= date.adding(days: 1).start(in: $0) }
                    ?? false
                if !day.checkedIn || (day.checkedInLate && !late) {
                    day.checkedInLate = late
                    day.mood = checkIn.mood
                    day.energy = checkIn.energy
                    day.previousDaySentiment = checkIn.sentiment
                }
                day.checkedIn = true
            }
        }
        let synced = latestSynced.values.compactMap { event -> StepTotals? in
            if case .steps(let totals) = event.payload { return totals }
            return nil
        }
        day.syncedSteps = synced.map(\.steps).max() ?? 0
        day.steps =
            switch manualSteps {
            case .add: day.syncedSteps + day.manualSteps
            case .max: Swift.max(day.syncedSteps, day.manualSteps)
            case .ignore: day.syncedSteps
            }
        day.distanceMeters = Swift.max(synced.compactMap(\.distanceMeters).max() ?? 0, workoutDistance)
        day.activeMinutes = Swift.max(synced.compactMap(\.activeMinutes).max() ?? 0, workoutMinutes)
        day.calories = Swift.max(synced.compactMap(\.calories).max() ?? 0, workoutCalories)
        if case .weight(let kilograms) = latestWeight?.payload { day.weightKg = kilograms }
        return day
    }

    /// Whether a day has anything in it (an "active day" of the statistics).
    public var hasActivity: Bool {
        self.steps > 0 || self.workouts > 0
    }

    private static func isNewer(_ event: ActivityEvent, than current: ActivityEvent) -> Bool {
        (event.occurredAt, event.clientEventID) > (current.occurredAt, current.clientEventID)
    }
}
