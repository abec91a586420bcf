public import Foundation

/// The content of an activity event, by kind. Stored as JSON beside the event's columns.
public enum ActivityPayload: Equatable, Sendable {
    /// A step total; health-data syncs may add the day's other totals.
    case steps(StepTotals)
    case weight(kilograms: Double)
    case workout(Workout)
    case water(milliliters: Double)
    case appOpen
    case checkIn(CheckIn)

    /// The payload as the client sent it: FitCircle's own estimates removed (they depend on the weight then).
    public var withoutEstimates: ActivityPayload {
        guard case .workout(var workout) = self, workout.caloriesEstimated else { return self }
        workout.calories = nil
        workout.caloriesEstimated = false
        return .workout(workout)
    }

    public var kind: ActivityKind {
        switch self {
        case .steps: .steps
        case .weight: .weight
        case .workout: .workout
        case .water: .water
        case .appOpen: .appOpen
        case .checkIn: .checkIn
        }
    }
}

/// A day's totals as a health-data source reports them.
public struct StepTotals: Equatable, Sendable, Codable {
    public var steps: Int
    public var distanceMeters: Double?
    public var activeMinutes: Double?
    public var calories: Double?

    public init(steps: Int, distanceMeters: Double? = nil, activeMinutes: Double? = nil, calories: Double? = nil) {
        self.steps = steps
        self.distanceMeters = distanceMeters
        self.activeMinutes = activeMinutes
        self.calories = calories
    }
}

/// One workout session.
public struct Workout: Equatable, Sendable, Codable {
    public var type: WorkoutType
    public var durationSeconds: Double
    public var distanceMeters: Double?
    public var calories: Double?
    /// `true` when FitCircle estimated `calories` from MET values because the client sent none.
    public var caloriesEstimated: Bool
    /// Encoded polyline of the route, as the app recorded it.
    public var route: String?
    /// Push-ups: which series of the day this was (1, 2, …) and how many repetitions.
    public var series: Int?
    public var reps: Int?

    public init(
        type: WorkoutType,
        durationSeconds: Double,
        distanceMeters: Double? = nil,
        calories: Double? = nil,
        caloriesEstimated: Bool = false,
        route: String? = nil,
        series: Int? = nil,
        reps: Int? = nil
    ) {
        self.type = type
        self.durationSeconds = durationSeconds
        self.distanceMeters = distanceMeters
        self.calories = calories
        self.caloriesEstimated = caloriesEstimated
        self.route = route
        self.series = series
        self.reps = reps
    }

    /// Seconds per kilometre, when a distance was recorded.
    public var paceSecondsPerKilometer: Double? {
        guard let distanceMeters, distanceMeters > 0 else { return nil }
        return self.durationSeconds / (distanceMeters / 1000)
    }
}

extension ActivityPayload: Codable {
    private enum CodingKeys: String, CodingKey { case kind, totals, kilograms, workout, milliliters, checkIn }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(ActivityKind.self, forKey: .kind) {
        case .steps: self = .steps(try container.decode(StepTotals.self, forKey: .totals))
        case .weight: self = .weight(kilograms: try container.decode(Double.self, forKey: .kilograms))
        case .workout: self = .workout(try container.decode(Workout.self, forKey: .workout))
        case .water: self = .water(milliliters: try container.decode(Double.self, forKey: .milliliters))
        case .appOpen: self = .appOpen
        case .checkIn: self = .checkIn(try container.decode(CheckIn.self, forKey: .checkIn))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.kind, forKey: .kind)
        switch self {
        case .steps(let totals): try container.encode(totals, forKey: .totals)
        case .weight(let kilograms): try container.encode(kilograms, forKey: .kilograms)
        case .workout(let workout): try container.encode(workout, forKey: .workout)
        case .water(let milliliters): try container.encode(milliliters, forKey: .milliliters)
        case .appOpen: break
        case .checkIn(let checkIn): try container.encode(checkIn, forKey: .checkIn)
        }
    }
}
