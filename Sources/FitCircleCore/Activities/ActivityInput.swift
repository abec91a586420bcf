public import Foundation

/// An activity as a client sends it, before it is checked and stamped with a local date.
public struct ActivityInput: Equatable, Sendable {
    public var clientEventID: String
    public var occurredAt: Date
    /// The IANA zone the user was in; the profile's zone when the client does not say.
    public var timeZone: String?
    public var source: ActivitySource
    public var payload: ActivityPayload
    /// The day a synced total is for, when earlier than the day it was read on (yesterday's total, synced
    /// after midnight), or the day a late check-in claims. Only for step totals and check-ins.
    public var date: LocalDate?
    /// Who else sees it; the profile's default when the client does not say.
    public var visibility: ActivityVisibility?

    public init(
        clientEventID: String,
        occurredAt: Date,
        timeZone: String? = nil,
        source: ActivitySource,
        payload: ActivityPayload,
        date: LocalDate? = nil,
        visibility: ActivityVisibility? = nil
    ) {
        self.clientEventID = clientEventID
        self.occurredAt = occurredAt
        self.timeZone = timeZone
        self.source = source
        self.payload = payload
        self.date = date
        self.visibility = visibility
    }
}

/// What cannot be true is refused; what is merely surprising is accepted and flagged.
public enum ActivityRules {
    public static let maximumStepsPerDay = 100_000
    public static let maximumWorkoutSeconds: Double = 24 * 3600
    public static let maximumFutureSkew: TimeInterval = 5 * 60
    /// Nothing earlier than this is a real recording (the first smartphone step counters came later).
    public static let earliestInstant = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01
    /// A day's steps this many times above the user's 28-day maximum is flagged `steps_spike`.
    public static let spikeFactor = 5

    /// The fastest average speed (m/s) anyone has kept up over `distance` metres, plus 5 %: world records.
    /// Running follows the record at the longest record distance not above `distance` (records get slower
    /// with distance, so that bound is generous); walking and cycling use one bound each.
    public static func maximumSpeed(for type: WorkoutType, distance: Double) -> Double? {
        switch type {
        case .running:
            let record = self.runningRecords.last { $0.meters <= distance } ?? self.runningRecords[0]
            return record.meters / record.seconds * 1.05
        case .walking: return 4.5  // 20 km race walk ≈ 4.35 m/s
        case .cycling: return 25  // hour record ≈ 15.8 m/s; group rides and descents go faster for a while
        case .strength, .pushups, .other: return nil
        }
    }

    /// Men's outdoor world records: 100 m 9.58 s, 400 m 43.03 s, 1500 m 3:26.00, 5000 m 12:35.36,
    /// 10,000 m 26:11.00, half marathon 57:30, marathon 2:00:35.
    static let runningRecords: [(meters: Double, seconds: Double)] = [
        (100, 9.58), (400, 43.03), (1500, 206.0), (5000, 755.36), (10_000, 1571.0), (21_097.5, 3450), (42_195, 7235),
    ]

    /// Checks `input` against the laws of physics and the profile's limits.
    /// - Returns: the zone and local date the input belongs to.
    public static func validate(
        _ input: ActivityInput,
        defaultTimeZone: String,
        limits: RuleProfile.Limits,
        now: Date,
        field prefix: String = ""
    ) throws(ValidationError) -> (timeZone: String, localDate: LocalDate) {
        var validator = Validator()
        let id = input.clientEventID
        validator.check(
            !id.isEmpty && id.utf8.count <= 128
                && !id.unicodeScalars.contains { $0.properties.generalCategory == .control },
            prefix + "clientEventId",
            "must be 1–128 bytes in UTF-8, without control characters"
        )
        validator.check(
            input.occurredAt <= now.addingTimeInterval(self.maximumFutureSkew),
            prefix + "occurredAt",
            "must not be more than 5 minutes in the future"
        )
        validator.check(
            input.occurredAt >= self.earliestInstant,
            prefix + "occurredAt",
            "must be in the year 2000 or later"
        )
        let zoneName = input.timeZone ?? defaultTimeZone
        let zone = TimeZoneID.validated(zoneName).flatMap(TimeZone.init(identifier:))
        validator.check(zone != nil, prefix + "timeZone", "must be an IANA time-zone identifier such as Europe/Paris")

        switch input.payload {
        case .steps(let totals):
            validator.check(
                (0...self.maximumStepsPerDay).contains(totals.steps),
                prefix + "steps",
                "must be between 0 and \(self.maximumStepsPerDay) in a day"
            )
            validator.check(
                (totals.distanceMeters ?? 0) >= 0 && (totals.distanceMeters ?? 0) <= 1_000_000,
                prefix + "distanceMeters",
                "must be between 0 and 1,000 km"
            )
            validator.check(
                (totals.activeMinutes ?? 0) >= 0 && (totals.activeMinutes ?? 0) <= 1440,
                prefix + "activeMinutes",
                "must be between 0 and 1440"
            )
            validator.check(
                (totals.calories ?? 0) >= 0 && (totals.calories ?? 0) <= 20_000,
                prefix + "calories",
                "must be between 0 and 20,000"
            )
        case .weight(let kilograms):
            validator.check(
                kilograms.isFinite && limits.weightKg.contains(kilograms),
                prefix + "weightKg",
                "must be between \(Int(limits.weightKg.lowerBound)) and \(Int(limits.weightKg.upperBound)) kg"
            )
        case .workout(let workout):
            self.check(workout, into: &validator, prefix: prefix)
        case .water(let milliliters):
            validator.check(
                milliliters > 0 && milliliters <= 20_000,
                prefix + "waterMl",
                "must be between 0 and 20,000 ml"
            )
        case .appOpen:
            break
        case .checkIn(let checkIn):
            validator.check((1...5).contains(checkIn.mood), prefix + "mood", "must be between 1 and 5")
            validator.check((1...5).contains(checkIn.energy), prefix + "energy", "must be between 1 and 5")
        }
        let readOn = zone.map { LocalDate(input.occurredAt, in: $0) }
        if let date = input.date {
            validator.check(
                [.steps, .checkIn].contains(input.payload.kind),
                prefix + "date",
                "may only be given for step totals and check-ins"
            )
            validator.check(
                readOn.map { date <= $0 } ?? true,
                prefix + "date",
                "must not be after the day of occurredAt"
            )
        }
        try validator.throwIfInvalid()
        // The zone was checked above, so a day is always read; the guard keeps the compiler from needing `!`.
        guard let day = input.date ?? readOn else {
            throw ValidationError(field: prefix + "timeZone", reason: "must be an IANA time-zone identifier")
        }
        return (zoneName, day)
    }

    private static func check(_ workout: Workout, into validator: inout Validator, prefix: String) {
        let duration = workout.durationSeconds
        validator.check(
            duration.isFinite && duration > 0 && duration <= self.maximumWorkoutSeconds,
            prefix + "durationSeconds",
            "must be more than 0 and at most 24 hours"
        )
        if let distance = workout.distanceMeters {
            validator.check(
                distance.isFinite && distance >= 0 && distance <= 1_000_000,
                prefix + "distanceMeters",
                "must be between 0 and 1,000 km"
            )
            if let limit = self.maximumSpeed(for: workout.type, distance: distance), duration > 0,
                distance / duration > limit
            {
                validator.fail(
                    prefix + "distanceMeters",
                    "is faster than the world record for \(workout.type.rawValue)"
                )
            }
        }
        if let route = workout.route {
            validator.check(
                Polyline.isValid(route),
                prefix + "route",
                "must be an encoded polyline of at most \(Polyline.maximumBytes) bytes whose points lie on the globe"
            )
        }
        if let calories = workout.calories {
            validator.check(
                calories.isFinite && calories >= 0 && calories <= 20_000,
                prefix + "calories",
                "must be between 0 and 20,000"
            )
        }
        if workout.type == .pushups {
            validator.check(
                (1...10_000).contains(workout.reps ?? 0),
                prefix + "reps",
                "must be between 1 and 10,000 for push-ups"
            )
            validator.check((1...100).contains(workout.series ?? 1), prefix + "series", "must be between 1 and 100")
        }
    }

    /// Flags for an accepted input: a step total far above the user's recent best is suspicious.
    public static func flags(for payload: ActivityPayload, previous28DayMaximumSteps: Int) -> [String] {
        guard case .steps(let totals) = payload, previous28DayMaximumSteps > 0,
            totals.steps > previous28DayMaximumSteps * self.spikeFactor
        else { return [] }
        return ["steps_spike"]
    }
}
