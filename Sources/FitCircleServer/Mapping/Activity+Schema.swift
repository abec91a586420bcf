import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation

extension ActivityInput {
    /// The input as Core understands it. A field the type needs but the body lacks is named as `prefix + field`.
    init(_ body: Components.Schemas.ActivityInput, field prefix: String = "") throws {
        func required<T>(_ value: T?, _ field: String) throws -> T {
            guard let value else {
                throw ValidationError(field: prefix + field, reason: "is required when type is \(body._type.rawValue)")
            }
            return value
        }
        let payload: ActivityPayload
        switch body._type {
        case .steps:
            payload = .steps(
                StepTotals(
                    steps: try required(body.steps, "steps"),
                    distanceMeters: body.distanceMeters,
                    activeMinutes: body.activeMinutes,
                    calories: body.calories
                )
            )
        case .weight:
            payload = .weight(kilograms: try required(body.weightKg, "weightKg"))
        case .workout:
            payload = .workout(try Workout(try required(body.workout, "workout")))
        case .water:
            payload = .water(milliliters: try required(body.waterMl, "waterMl"))
        case .appOpen:
            payload = .appOpen
        case .checkIn:
            throw ValidationError(field: prefix + "type", reason: "check_in is recorded by POST /api/streaks/checkin")
        }
        self.init(
            clientEventID: body.clientEventId,
            occurredAt: body.occurredAt,
            timeZone: body.timeZone,
            source: try body.source.map(mapped) ?? (body._type == .appOpen ? .app : .manual),
            payload: payload,
            visibility: try body.visibility.map(mapped)
        )
    }

    /// A health-data sync of a day's totals as a steps event.
    init(_ body: Components.Schemas.DailySync) throws {
        let source: ActivitySource = try mapped(body.source)
        self.init(
            clientEventID: body.clientEventId
                ?? "sync:\(source.rawValue):\(body.date ?? "-"):\(Int(body.occurredAt.timeIntervalSince1970 * 1000))",
            occurredAt: body.occurredAt,
            timeZone: body.timeZone,
            source: source,
            payload: .steps(
                StepTotals(
                    steps: body.steps,
                    distanceMeters: body.distanceMeters,
                    activeMinutes: body.activeMinutes,
                    calories: body.calories
                )
            )
        )
    }
}

extension Workout {
    init(_ body: Components.Schemas.WorkoutInput) throws {
        self.init(
            type: try mapped(body._type),
            durationSeconds: body.durationSeconds,
            distanceMeters: body.distanceMeters,
            calories: body.calories,
            route: body.route,
            series: body.series,
            reps: body.reps
        )
    }
}

extension Components.Schemas.Activity {
    /// `withRoute: false` for lists: a route may be 64 KB, so pages and batch answers leave it out and
    /// `GET /api/activities/{id}` gives it.
    init(_ event: ActivityEvent, reward: Reward? = nil, withRoute: Bool = true) throws {
        self.init(
            id: event.id.rawValue,
            clientEventId: event.clientEventID,
            _type: try mapped(event.kind),
            occurredAt: event.occurredAt,
            timeZone: event.timeZone,
            localDate: event.localDate.iso,
            source: try mapped(event.source),
            receivedAt: event.receivedAt,
            flags: event.flags,
            reward: try reward.map(Components.Schemas.Reward.init),
            visibility: try mapped(event.visibility)
        )
        self.revision = event.revision
        self.modifiedAt = event.modifiedAt
        switch event.payload {
        case .steps(let totals):
            self.steps = totals.steps
            self.distanceMeters = totals.distanceMeters
            self.activeMinutes = totals.activeMinutes
            self.calories = totals.calories
        case .weight(let kilograms):
            self.weightKg = kilograms
        case .workout(let workout):
            self.workout = .init(
                value1: .init(
                    _type: try mapped(workout.type),
                    durationSeconds: workout.durationSeconds,
                    distanceMeters: workout.distanceMeters,
                    calories: workout.calories,
                    route: withRoute ? workout.route : nil,
                    series: workout.series,
                    reps: workout.reps
                ),
                value2: .init(
                    caloriesEstimated: workout.caloriesEstimated,
                    paceSecondsPerKm: workout.paceSecondsPerKilometer
                )
            )
        case .water(let milliliters):
            self.waterMl = milliliters
        case .appOpen:
            break
        case .checkIn(let checkIn):
            self.checkIn = .init(
                mood: checkIn.mood,
                energy: checkIn.energy,
                sentiment: try checkIn.sentiment.map(mapped)
            )
        }
    }
}

extension Components.Schemas.DailyTracking {
    init(_ day: FitCircleCore.DailyTracking) throws {
        self.init(
            date: day.date.iso,
            steps: day.steps,
            syncedSteps: day.syncedSteps,
            manualSteps: day.manualSteps,
            weightKg: day.weightKg,
            workouts: day.workouts,
            activeMinutes: day.activeMinutes,
            distanceMeters: day.distanceMeters,
            calories: day.calories,
            pushupReps: day.pushupReps,
            waterMl: day.waterMilliliters,
            appOpened: day.appOpened,
            checkedIn: day.checkedIn,
            mood: day.mood,
            energy: day.energy,
            previousDaySentiment: try day.previousDaySentiment.map(mapped)
        )
    }
}

/// Query parameters that hold local dates (`YYYY-MM-DD`).
func localDate(_ text: String?, field: String) throws -> LocalDate? {
    guard let text else { return nil }
    guard let date = LocalDate(iso: text) else {
        throw ValidationError(field: field, reason: "must be a date such as 2026-11-22")
    }
    return date
}

extension Components.Schemas.PersonalRecord {
    init(_ records: PersonalRecords) throws {
        self.init(
            _type: try mapped(records.type),
            longestDistanceMeters: records.longestDistanceMeters,
            longestDurationSeconds: records.longestDurationSeconds,
            fastestPaceSecondsPerKm: records.fastestPaceSecondsPerKilometer
        )
    }
}

extension Components.Schemas.MigrationSession {
    init(_ session: MigrationSession) {
        self.init(
            id: session.id.rawValue,
            createdAt: session.createdAt,
            expected: session.expected,
            received: session.counts.received,
            accepted: session.counts.accepted,
            duplicates: session.counts.duplicates,
            refused: session.counts.refused,
            complete: session.isComplete
        )
    }
}

extension MigrationSession.Outcome {
    /// What a batch item's status counts as in a migration session.
    init(_ status: Components.Schemas.ActivityBatchItem.StatusPayload) {
        switch status {
        case .created: self = .accepted
        case .replayed: self = .duplicate
        case .rejected: self = .refused
        }
    }
}

extension Components.Schemas.ActivityChange {
    /// A change as an app syncs it: the activity as it is now (without its route, as lists are), or a
    /// tombstone.
    init(_ change: ActivityChange) throws {
        self.init(
            id: change.id.rawValue,
            clientEventId: change.clientEventID,
            changedAt: change.changedAt,
            deleted: change.activity == nil,
            deletedAt: change.deletedAt,
            activity: try change.activity.map { try Components.Schemas.Activity($0, withRoute: false) }
        )
    }
}
