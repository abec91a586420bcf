import FitCircleCore
import FitCircleStore
import Foundation

/// One call's inputs, waiting to be written with others.
struct Submission: Sendable {
    var user: User.ID
    var inputs: [ActivityInput]
    /// The JSON path prefix of each input in the request, for the problems that name a field.
    var fieldPrefix: @Sendable (Int) -> String
    /// All inputs or none: one refused input refuses the submission (a check-in and its weight).
    var atomic = false
}

/// Writes a group of submissions in one transaction with a fixed number of statements, however many
/// events the group holds: lock the users, read the 28-day step bests, insert the events, read back any
/// client id that was taken, read the touched days' events and save those days. Then, in the same
/// transaction, each feature's reaction to what was created (`reactions`, in order): the notifications the
/// new days raise, habitual times, streaks, analytics, points and badges, challenge boards, friends' news.
/// So `run` reads validate → insert → recompute → react.
struct Ingest: Sendable {
    let profile: RuleProfile
    let ids: IDGenerator
    /// Kept for what undoes or edits an input (`Activities.delete`, `edit`), which moves the same state.
    let streaks: StreakKeeper
    let rewards: RewardKeeper
    let challenges: ChallengeScoring
    /// What follows a group's new inputs, in the order it runs: a reaction may read what one before it left
    /// (`RewardCredits` the streaks of `StreakMoves`).
    let reactions: [any IngestReaction]

    init(
        profile: RuleProfile,
        ids: IDGenerator,
        streaks: StreakKeeper,
        rewards: RewardKeeper,
        nudges: ActivityNudges,
        challenges: ChallengeScoring,
        analytics: EventRecorder
    ) {
        self.profile = profile
        self.ids = ids
        self.streaks = streaks
        self.rewards = rewards
        self.challenges = challenges
        self.reactions = [
            nudges, HabitRefresh(), StreakMoves(streaks: streaks, profile: profile, ids: ids),
            InputAnalytics(analytics: analytics),
            RewardCredits(rewards: rewards, streaks: streaks), challenges, WorkoutNews(profile: profile, ids: ids),
        ]
    }

    /// An input that passed validation, as the event it would store.
    private struct Candidate {
        var submission: Int
        var item: Int
        var event: ActivityEvent
        var key: ClientEventKey { ClientEventKey(user: self.event.userID, clientEventID: self.event.clientEventID) }

        func isCreated(in outcomes: [[Activities.Outcome?]]) -> Bool {
            if case .created = outcomes[self.submission][self.item] { true } else { false }
        }
    }

    /// One result per submission: its outcomes, or why it was refused as a whole (its user is gone).
    /// Throws only when the database fails, and then the transaction must be rolled back.
    func run(_ submissions: [Submission], in tx: Transaction, now: Date) async throws -> [Result<
        [Activities.Outcome], any Error
    >] {
        let users = try await tx.users.locked(submissions.map(\.user))
        var outcomes = submissions.map { [Activities.Outcome?](repeating: nil, count: $0.inputs.count) }
        var candidates: [Candidate] = []
        for (index, submission) in submissions.enumerated() {
            guard let user = users[submission.user] else { continue }
            for (item, input) in submission.inputs.enumerated() {
                do {
                    let placed = try ActivityRules.validate(
                        input,
                        defaultTimeZone: user.profile.timeZone,
                        limits: self.profile.limits,
                        now: now,
                        field: submission.fieldPrefix(item)
                    )
                    candidates.append(
                        Candidate(
                            submission: index,
                            item: item,
                            event: self.event(input, placed: placed, of: user, now: now)
                        )
                    )
                } catch {
                    outcomes[index][item] = .rejected(clientEventID: input.clientEventID, error: .invalid(error))
                }
            }
        }
        try await self.flagSpikes(&candidates, in: tx)

        // The first input of each client id is inserted; a later one in the group is judged against it.
        var first: [ClientEventKey: ActivityEvent] = [:]
        var inserts: [ActivityEvent] = []
        for candidate in candidates where first[candidate.key] == nil {
            first[candidate.key] = candidate.event
            inserts.append(candidate.event)
        }
        let inserted = try await tx.activities.insert(inserts)
        let taken = try await tx.activities.list(
            withClientIDs: inserts.filter { !inserted.contains($0.id) }.map {
                ClientEventKey(user: $0.userID, clientEventID: $0.clientEventID)
            }
        )
        var touched: Set<UserDay> = []
        for candidate in candidates {
            let outcome: Activities.Outcome
            // Every candidate's key has its first candidate (`first` was built from them all).
            guard let representative = first[candidate.key] else { continue }
            if inserted.contains(representative.id) {
                if representative.id == candidate.event.id {
                    outcome = .created(candidate.event, reward: nil)
                    touched.insert(UserDay(user: candidate.event.userID, date: candidate.event.localDate))
                } else {
                    outcome = Self.judge(candidate.event, against: representative)
                }
            } else {
                guard let existing = taken[candidate.key] else { throw StoreError.conflict }
                outcome = Self.judge(candidate.event, against: existing.event)
            }
            outcomes[candidate.submission][candidate.item] = outcome
        }
        for (index, submission) in submissions.enumerated() where submission.atomic {
            // Throwing rolls the group back; the submissions are then written one by one and this one fails alone.
            for case .rejected(_, let reason) in outcomes[index] {
                switch reason {
                case .invalid(let error): throw error
                case .conflict(let reason): throw DomainError.conflict(reason: reason)
                }
            }
        }
        let days = try await self.recompute(touched, in: tx, now: now)
        let created = candidates.filter { $0.isCreated(in: outcomes) }
        var ingested = Ingested(users: users, created: created.map(\.event), days: days, now: now)
        for reaction in self.reactions {
            try await reaction.react(to: &ingested, in: tx)
        }
        for candidate in created {
            outcomes[candidate.submission][candidate.item] = .created(
                candidate.event,
                reward: ingested.rewards[candidate.event.id]
            )
        }

        return submissions.enumerated().map { index, submission in
            guard users[submission.user] != nil else {
                return .failure(DomainError.notFound(resource: "user", id: submission.user.rawValue))
            }
            let decided = outcomes[index].compactMap { $0 }
            // Every item of a found user's submission is decided above; one that is not is a defect, told
            // as such rather than trapping.
            guard decided.count == outcomes[index].count else { return .failure(IngestDefect(submission: index)) }
            return .success(decided)
        }
    }

    /// Rebuilds stored days from their live events, and answers them.
    @discardableResult
    func recompute(_ days: Set<UserDay>, in tx: Transaction, now: Date) async throws -> [(
        user: User.ID, day: DailyTracking
    )] {
        guard !days.isEmpty else { return [] }
        let events = try await tx.activities.list(on: days)
        let summaries = days.sorted().map { day in
            (
                user: day.user,
                day: DailyTracking.summarize(
                    events[day] ?? [],
                    on: day.date,
                    manualSteps: self.profile.activities.manualSteps
                )
            )
        }
        try await tx.activities.save(summaries, at: now)
        return summaries
    }

    /// The same client id again: the same input is a replay of the stored one, anything else a conflict.
    private static func judge(_ event: ActivityEvent, against existing: ActivityEvent) -> Activities.Outcome {
        // An edited event answers its creation sent again (an outbox that resends after the edit) as a replay.
        if existing.isReplay(of: event) || (existing.revision > 0 && existing.kind == event.kind) {
            return .replayed(existing)
        }
        return .rejected(
            clientEventID: event.clientEventID,
            error: .conflict("clientEventId '\(event.clientEventID)' was already used for a different activity")
        )
    }

    func event(_ input: ActivityInput, placed: (timeZone: String, localDate: LocalDate), of user: User, now: Date)
        -> ActivityEvent
    {
        ActivityEvent(
            id: self.ids.make(),
            userID: user.id,
            clientEventID: input.clientEventID,
            occurredAt: input.occurredAt,
            timeZone: placed.timeZone,
            localDate: placed.localDate,
            source: input.source,
            receivedAt: now,
            payload: Self.withEstimates(input.payload, for: user.profile),
            visibility: input.visibility ?? self.profile.activities.defaultVisibility
        )
    }

    /// The flags of an edited step total, against the 28 days before it as stored.
    func spikeFlags(of event: ActivityEvent, in tx: Transaction) async throws -> [String] {
        var candidates = [Candidate(submission: 0, item: 0, event: event)]
        try await self.flagSpikes(&candidates, in: tx)
        return candidates[0].event.flags
    }

    /// Flags step totals far above the user's best of the 28 days before, as stored before this group.
    private func flagSpikes(_ candidates: inout [Candidate], in tx: Transaction) async throws {
        let steps = candidates.filter { $0.event.kind == .steps }.map(\.event)
        guard let earliest = steps.map(\.localDate).min(), let latest = steps.map(\.localDate).max() else { return }
        let stored = try await tx.activities.steps(
            of: Set(steps.map(\.userID)),
            from: earliest.adding(days: -28),
            to: latest.adding(days: -1)
        )
        for index in candidates.indices where candidates[index].event.kind == .steps {
            let event = candidates[index].event
            let window = (1...28).compactMap {
                stored[UserDay(user: event.userID, date: event.localDate.adding(days: -$0))]
            }
            candidates[index].event.flags = ActivityRules.flags(
                for: event.payload,
                previous28DayMaximumSteps: window.max() ?? 0
            )
        }
    }

    /// Fills in calories the client did not send, from MET values and what the user told about themselves.
    private static func withEstimates(_ payload: ActivityPayload, for profile: UserProfile) -> ActivityPayload {
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
}

/// An item of a submission that ingest did not decide: a defect in ingest, answered as an error for that
/// submission instead of a trap.
struct IngestDefect: Error, CustomStringConvertible {
    let submission: Int
    var description: String { "ingest left an item of submission \(self.submission) undecided" }
}
