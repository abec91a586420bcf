public import FitCircleCore
public import FitCircleStore
public import Foundation

/// The activity ledger: every raw input is an immutable event, and the user's days follow in the same
/// transaction. Nothing acknowledged is lost (one transaction per call) or counted twice (client event ids).
public struct Activities: Sendable {
    let store: Store
    let profile: RuleProfile
    let ids: IDGenerator
    let clock: WallClock

    public init(store: Store, profile: RuleProfile, ids: IDGenerator, clock: WallClock) {
        self.store = store
        self.profile = profile
        self.ids = ids
        self.clock = clock
    }

    /// What became of one input.
    public enum Outcome: Equatable, Sendable {
        /// Stored now.
        case created(ActivityEvent)
        /// Sent before with the same client event id and content: nothing changed.
        case replayed(ActivityEvent)
        /// Refused, with why; nothing of it was stored.
        case rejected(clientEventID: String, error: RejectionReason)

        public var event: ActivityEvent? {
            switch self {
            case .created(let event), .replayed(let event): event
            case .rejected: nil
            }
        }
    }

    /// Why a batch item was refused.
    public enum RejectionReason: Equatable, Sendable {
        case invalid(ValidationError)
        case conflict(String)
    }

    /// The most events one batch may carry.
    public static let maximumBatchSize = 500

    /// Records one input. A replay of an earlier input returns it unchanged; the same client event id with
    /// different content is a conflict.
    public func record(_ input: ActivityInput, for user: User.ID) async throws -> Outcome {
        let outcome = try await self.recordAll([input], for: user, fieldPrefix: { _ in "" })[0]
        switch outcome {
        case .created, .replayed: return outcome
        case .rejected(_, .invalid(let error)): throw error
        case .rejected(_, .conflict(let reason)): throw DomainError.conflict(reason: reason)
        }
    }

    /// Records up to 500 inputs in one transaction: each is created, replayed or rejected on its own, and
    /// a failure of the database leaves none of them applied. Sending the same batch again (or any part of
    /// it) changes nothing and answers the same.
    public func recordBatch(_ inputs: [ActivityInput], for user: User.ID) async throws -> [Outcome] {
        guard inputs.count <= Self.maximumBatchSize else {
            throw ValidationError(field: "events", reason: "must hold at most \(Self.maximumBatchSize) events; split the batch")
        }
        return try await self.recordAll(inputs, for: user, fieldPrefix: { "events[\($0)]." })
    }

    private func recordAll(_ inputs: [ActivityInput], for userID: User.ID, fieldPrefix: @Sendable (Int) -> String) async throws -> [Outcome] {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            guard let user = try await tx.lockedUser(userID) else { throw DomainError.notFound(resource: "user", id: userID.rawValue) }
            var outcomes: [Outcome] = []
            var touched: Set<LocalDate> = []
            // Stored days do not change until the recompute below, so each date's 28-day best is read once.
            var previousMaxima: [LocalDate: Int] = [:]
            for (index, input) in inputs.enumerated() {
                let outcome = try await self.ingest(
                    input, of: user, in: tx, now: now, field: fieldPrefix(index), previousMaxima: &previousMaxima)
                if case .created(let event) = outcome { touched.insert(event.localDate) }
                outcomes.append(outcome)
            }
            for date in touched {
                try await self.recompute(date, of: userID, in: tx, now: now)
            }
            return outcomes
        }
    }

    private func ingest(
        _ input: ActivityInput,
        of user: User,
        in tx: Transaction,
        now: Date,
        field: String,
        previousMaxima: inout [LocalDate: Int]
    ) async throws -> Outcome {
        let placed: (timeZone: String, localDate: LocalDate)
        do {
            placed = try ActivityRules.validate(
                input, defaultTimeZone: user.profile.timeZone, limits: self.profile.limits, now: now, field: field)
        } catch {
            return .rejected(clientEventID: input.clientEventID, error: .invalid(error))
        }
        let payload = self.withEstimates(input.payload, for: user.profile)
        // Only step totals can spike; other kinds skip the query.
        var previousMaximum = 0
        if payload.kind == .steps {
            let date = placed.localDate
            if let known = previousMaxima[date] {
                previousMaximum = known
            } else {
                previousMaximum = try await tx.maximumSteps(of: user.id, from: date.adding(days: -28), to: date.adding(days: -1))
                previousMaxima[date] = previousMaximum
            }
        }
        let event = ActivityEvent(
            id: self.ids.make(),
            userID: user.id,
            clientEventID: input.clientEventID,
            occurredAt: input.occurredAt,
            timeZone: placed.timeZone,
            localDate: placed.localDate,
            source: input.source,
            receivedAt: now,
            payload: payload,
            flags: ActivityRules.flags(for: payload, previous28DayMaximumSteps: previousMaximum)
        )
        if try await tx.insert(event) {
            return .created(event)
        }
        // The client id was taken: the same input again is a replay, anything else a conflict.
        guard let existing = try await tx.activity(of: user.id, clientEventID: input.clientEventID) else { throw StoreError.conflict }
        if existing.event.isReplay(of: event) {
            return .replayed(existing.event)
        }
        return .rejected(
            clientEventID: input.clientEventID,
            error: .conflict("clientEventId '\(input.clientEventID)' was already used for a different activity")
        )
    }

    /// Fills in calories the client did not send, from MET values and what the user told about themselves.
    private func withEstimates(_ payload: ActivityPayload, for profile: UserProfile) -> ActivityPayload {
        guard case .workout(var workout) = payload, workout.calories == nil else { return payload }
        workout.calories = CalorieEstimate.kilocalories(
            workout,
            weightKg: profile.weightKg ?? CalorieEstimate.referenceWeightKg,
            age: profile.age,
            heightCm: profile.heightCm,
            gender: profile.gender
        )
        workout.caloriesEstimated = true
        return .workout(workout)
    }

    /// Rebuilds one stored day from its live events.
    func recompute(_ date: LocalDate, of user: User.ID, in tx: Transaction, now: Date) async throws {
        let events = try await tx.activities(of: user, on: date)
        let day = DailyTracking.summarize(events, on: date, manualSteps: self.profile.activities.manualSteps)
        try await tx.save(day, of: user, at: now)
    }
}
