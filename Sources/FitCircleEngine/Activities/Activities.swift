public import FitCircleCore
public import FitCircleStore
import Foundation

/// The activity ledger: every raw input is an immutable event, and the user's days follow in the same
/// transaction. Nothing acknowledged is lost (a call answers after its transaction commits) or counted
/// twice (client event ids). Concurrent calls are written together by group commit (see `GroupCommit`).
public struct Activities: Sendable {
    let store: Store
    let profile: RuleProfile
    let ids: IDGenerator
    let clock: WallClock
    let ingest: Ingest
    private let committer: GroupCommit<Submission, [Outcome]>

    public init(
        store: Store,
        rules: Rules,
        ids: IDGenerator,
        clock: WallClock,
        boards: BoardEvents,
        analytics: EventRecorder
    ) {
        let profile = rules.base
        self.store = store
        self.profile = profile
        self.ids = ids
        self.clock = clock
        let ingest = Ingest(
            profile: profile,
            ids: ids,
            streaks: StreakKeeper(rules: rules, analytics: analytics),
            rewards: RewardKeeper(profile: profile, ids: ids, analytics: analytics),
            nudges: ActivityNudges(profile: profile, ids: ids),
            challenges: ChallengeScoring(events: boards, catalog: profile.notifications, ids: ids),
            analytics: analytics
        )
        self.ingest = ingest
        // SQLite has one writer. PostgreSQL statements wait ~2 ms for their round trip on a loaded machine, so
        // a second group is written while the first waits (measured: 2 beat 1, 4 and 8; Benchmarks/README.md).
        let runners = store.dialect == .sqlite ? 1 : 2
        self.committer = GroupCommit(maximumWeight: Self.maximumBatchSize, runners: runners) { submissions in
            await Self.write(submissions, with: ingest, to: store, at: clock.now())
        }
    }

    /// What became of one input.
    public enum Outcome: Equatable, Sendable {
        /// Stored now, with what it earned when it earns anything.
        case created(ActivityEvent, reward: Reward?)
        /// Sent before with the same client event id and content: nothing changed.
        case replayed(ActivityEvent)
        /// Refused, with why; nothing of it was stored.
        case rejected(clientEventID: String, error: RejectionReason)

        public var event: ActivityEvent? {
            switch self {
            case .created(let event, _), .replayed(let event): event
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
            throw ValidationError(
                field: "events",
                reason: "must hold at most \(Self.maximumBatchSize) events; split the batch"
            )
        }
        return try await self.recordAll(inputs, for: user, fieldPrefix: { "events[\($0)]." })
    }

    /// Records inputs that stand or fall together (any refused input is thrown and none is stored) inside the
    /// caller's transaction, for a use case whose input depends on what it read under the user's lock (a
    /// goal's progress given as the day's total, a check-in judged against the user's today):
    /// reading and writing in one transaction is what keeps two concurrent calls from counting twice.
    /// Not grouped with other calls: the caller's transaction is the group.
    func record(_ inputs: [ActivityInput], for user: User.ID, in tx: Transaction, now: Date) async throws -> [Outcome] {
        let results = try await self.ingest.run(
            [Submission(user: user, inputs: inputs, fieldPrefix: { _ in "" }, atomic: true)],
            in: tx,
            now: now
        )
        return try results[0].get()
    }

    private func recordAll(
        _ inputs: [ActivityInput],
        for user: User.ID,
        fieldPrefix: @escaping @Sendable (Int) -> String
    ) async throws -> [Outcome] {
        try await self.committer.submit(
            Submission(user: user, inputs: inputs, fieldPrefix: fieldPrefix),
            weight: max(inputs.count, 1)
        )
    }

    /// Writes a group of submissions in one transaction. Should the database refuse it, each submission is
    /// written again alone, so that one submission's fault is not another's — unless the database is down,
    /// which is nobody's fault and would only make each of them wait again.
    private static func write(_ submissions: [Submission], with ingest: Ingest, to store: Store, at now: Date) async
        -> [Result<[Outcome], any Error>]
    {
        do {
            return try await store.transaction { tx in try await ingest.run(submissions, in: tx, now: now) }
        } catch StoreError.unavailable {
            return submissions.map { _ in .failure(StoreError.unavailable) }
        } catch  where submissions.count > 1 {
            var results: [Result<[Outcome], any Error>] = []
            for submission in submissions {
                do {
                    results.append(
                        try await store.transaction { tx in try await ingest.run([submission], in: tx, now: now)[0] }
                    )
                } catch {
                    results.append(.failure(error))
                }
            }
            return results
        } catch {
            return [.failure(error)]
        }
    }

    /// Rebuilds stored days from their live events, and the streak, the points and the habitual time if
    /// `event` is part of them.
    func recompute(after event: ActivityEvent, of user: User, in tx: Transaction, now: Date) async throws {
        try await self.ingest.recompute([UserDay(user: user.id, date: event.localDate)], in: tx, now: now)
        if self.ingest.streaks.matters(event.payload) {
            _ = try await self.ingest.streaks.refresh(user, in: tx, now: now, changedFrom: event.localDate)
        }
        if self.ingest.rewards.matters(event.payload, streaks: self.ingest.streaks) {
            try await self.ingest.rewards.reverse(event, of: user, in: tx, now: now)
        }
        if SendHabits.matters(event.payload) {
            try await SendHabits.refresh([user.id], in: tx)
        }
        try await self.ingest.challenges.restate([user.id], in: tx, now: now)
    }
}
