public import FitCircleClient
import FitCircleEngine
public import Foundation

extension TestApp {
    /// One series of push-ups recorded as `email`, now or at `at`: the activity as the API answers it, with
    /// its reward (none for a replayed client id).
    @discardableResult
    public func recordPushups(
        _ clientEventID: String,
        series: Int,
        reps: Int,
        at: Date? = nil,
        as email: String = "ana@example.com"
    ) async throws -> Components.Schemas.Activity {
        let workout = Components.Schemas.WorkoutInput(_type: .pushups, durationSeconds: 60, series: series, reps: reps)
        let input = Components.Schemas.ActivityInput(
            clientEventId: clientEventID,
            _type: .workout,
            occurredAt: at ?? self.clock.now,
            workout: workout
        )
        return try await self.record(input, as: email)
    }

    /// Records `input` as `email`: a new activity (201) or the replay of one already recorded (200).
    public func record(_ input: Components.Schemas.ActivityInput, as email: String = "ana@example.com") async throws
        -> Components.Schemas.Activity
    {
        switch try await self.api(as: email).recordActivity(body: .json(input)) {
        case .created(let created): return try created.body.json
        case .ok(let replayed): return try replayed.body.json
        case let other: throw TestSetupError("recording \(input.clientEventId) answered \(other)")
        }
    }

    /// What replaying every event finds different from what is stored: tracking, rewards and habits. Empty
    /// when the stored state is what the ledger makes.
    public func replayDifferences() async throws -> [String] {
        try await self.engine.replay.rewardDifferences().map(\.description)
            + self.engine.replay.run().map(\.description)
            + self.engine.replay.sendHabitDifferences().map(\.description)
    }
}

extension TestApp {
    /// A workout recorded by the app, ready to send: `km` over `minutes`, started `startedMinutesAgo` before
    /// the test clock's now.
    public func workout(
        _ clientEventID: String,
        _ type: Components.Schemas.WorkoutType = .running,
        km: Double,
        minutes: Double,
        startedMinutesAgo: Double
    ) -> Components.Schemas.ActivityInput {
        Components.Schemas.ActivityInput(
            clientEventId: clientEventID,
            _type: .workout,
            occurredAt: self.clock.now.addingTimeInterval(-startedMinutesAgo * 60),
            source: .app,
            workout: .init(_type: type, durationSeconds: minutes * 60, distanceMeters: km * 1000)
        )
    }
}

/// `date` as the API writes instants (ISO 8601, UTC, whole seconds): for the bodies tests write by hand.
public func iso8601(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

extension TestApp {
    /// Records a workout of `person`'s, 25 minutes long, that started `minutesAgo` before the clock: its id.
    @discardableResult
    public func recordWorkout(
        _ clientEventID: String,
        by person: TestPerson,
        type: Components.Schemas.WorkoutType = .running,
        minutesAgo: Double,
        meters: Double? = 5000,
        route: String? = nil,
        visibility: Components.Schemas.ActivityVisibility? = nil
    ) async throws -> String {
        let input = Components.Schemas.ActivityInput(
            clientEventId: clientEventID,
            _type: .workout,
            occurredAt: self.clock.now.addingTimeInterval(-minutesAgo * 60),
            source: .app,
            workout: .init(_type: type, durationSeconds: 1500, distanceMeters: meters, route: route),
            visibility: visibility
        )
        return try await self.api(as: person).recordActivity(body: .json(input)).created.body.json.id
    }
}
