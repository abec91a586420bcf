public import FitCircleCore
public import FitCircleJobs
public import FitCircleStore
import Foundation

/// A challenge's life as durable jobs queued when it is made: at its start the quorum is checked for one
/// made an hour or more ahead (too few participants cancels it and refunds every stake; one made to start
/// at once is judged at the end); `Challenge.settlementGrace` after its end it settles
/// (the final board, the winners by the rule, each one's payout noted, records and rivalries moved) and
/// queues the payouts; each payout
/// moves XP out of escrow in a transaction of its own under the person's lock. Every step checks the
/// challenge's state under its lock and each ledger line is keyed once, so a job run twice, on two nodes,
/// or again after a crash between settlement and payout, pays exactly once.
extension Challenges: JobOwner {
    public static let start = "challenges.start"
    public static let settle = "challenges.settle"
    public static let payout = "challenges.payout"

    struct Job: Codable, Sendable {
        var challenge: Challenge.ID
    }

    public func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        try jobs.register(Self.start) { job in try await self.begin(try Self.decode(job).challenge) }
        try jobs.register(Self.settle) { job in try await self.settle(try Self.decode(job).challenge) }
        try jobs.register(Self.payout) { job in try await self.payOut(try Self.decode(job).challenge) }
        try self.registerNotificationJobs(in: &jobs)
        try self.registerBadgeJobs(in: &jobs)
    }

    func lifecycleJobs(of challenge: Challenge) throws -> [JobRecord] {
        [
            try self.job(Self.start, challenge.id, at: challenge.startsAt),
            try self.job(Self.settle, challenge.id, at: challenge.settlesAt),
        ]
    }

    private func job(_ kind: String, _ id: Challenge.ID, at instant: Date) throws -> JobRecord {
        JobRecord(
            id: self.ids.make(JobRecord.self).rawValue,
            kind: kind,
            payload: String(decoding: try JSONEncoder().encode(Job(challenge: id)), as: UTF8.self),
            dedupeKey: "\(kind):\(id)",
            runAt: instant,
            maxAttempts: 20
        )
    }

    private static func decode(_ job: JobRecord) throws -> Job {
        try JSONDecoder().decode(Job.self, from: Data(job.payload.utf8))
    }

    /// How long before its start a challenge must be made for its quorum to be judged at the start.
    static let gatheringTime: TimeInterval = 3_600

    /// At the start: too few participants cancels the challenge (one made an hour or more ahead), every
    /// stake owed back; else everyone in hears it has started.
    func begin(_ id: Challenge.ID) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            guard let challenge = try await tx.challenges.locked(id), challenge.settledAt == nil,
                challenge.cancelledAt == nil
            else { return }
            // Made with time to gather people (an hour or more ahead), it needs its quorum now; made to start
            // at once, people join while it runs and the quorum is judged at the end.
            if challenge.startsAt.timeIntervalSince(challenge.createdAt) >= Self.gatheringTime,
                try await self.cancelShortOfQuorum(challenge, in: tx, now: now)
            {
                return
            }
            // One made to start at once needs no news that it has.
            if challenge.startsAt.timeIntervalSince(challenge.createdAt) >= 60 {
                try await self.tellStarted(
                    challenge,
                    participants: try await tx.challenges.participants(of: id),
                    in: tx,
                    now: now
                )
            }
        }
    }

    /// Settles once (a second run, here or on another node, finds it settled): the winners by the rule from the final board, each participant's result and payout.
    public func settle(_ id: Challenge.ID) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            guard let challenge = try await tx.challenges.locked(id), challenge.settledAt == nil,
                challenge.cancelledAt == nil
            else { return }
            guard now >= challenge.settlesAt else {
                throw RetryLater(
                    reason: "settles at \(challenge.settlesAt)",
                    after: challenge.settlesAt.timeIntervalSince(now)
                )
            }
            if try await self.cancelShortOfQuorum(challenge, in: tx, now: now) { return }
            let participants = try await tx.challenges.participants(of: id)
            let keys = try await tx.boards.keys(challenge.board)
            let standings = keys.enumerated().map { index, key in
                ChallengeSettlement.Standing(
                    user: key.user,
                    rank: index + 1,
                    value: key.value,
                    reachedMilliseconds: key.reachedMilliseconds
                )
            }
            let result = ChallengeSettlement.settle(
                rule: challenge.rule,
                standings: standings,
                stakes: Dictionary(uniqueKeysWithValues: participants.map { ($0.userID, $0.staked) })
            )
            let places = Dictionary(uniqueKeysWithValues: standings.map { ($0.user, $0) })
            var results: [ChallengeParticipant] = []
            for var participant in participants {
                participant.finalRank = places[participant.userID]?.rank
                participant.finalValue = places[participant.userID].map { challenge.rule.shown($0.value) }
                participant.won = result.winners.contains(participant.userID)
                participant.payout = result.payouts[participant.userID] ?? 0
                participant.updatedAt = now
                try await tx.challenges.save(participant)
                results.append(participant)
            }
            try await tx.challenges.markSettled(id, at: now)
            try await Self.record(results, of: challenge, in: tx, at: now)
            try await self.recordFinishes(results, of: challenge, in: tx, at: now)
            try await tx.enqueue(try self.badgeJobs(for: results.map(\.userID), key: "settled:\(id)", at: now), at: now)
            try await self.tellResults(challenge, participants: results, refunded: result.refunded, in: tx, now: now)
            try await tx.enqueue([try self.job(Self.payout, id, at: now)], at: now)
        }
    }

    /// Each participant's result as an analytics event (the metrics' challenge completion).
    private func recordFinishes(
        _ results: [ChallengeParticipant],
        of challenge: Challenge,
        in tx: Transaction,
        at now: Date
    ) async throws {
        let people = try await tx.users.all(results.map(\.userID))
        let events = results.compactMap { result -> AnalyticsEvent? in
            guard let person = people[result.userID] else { return nil }
            return .server(
                .challengeFinished,
                key: challenge.id.rawValue,
                of: person,
                at: now,
                properties: [
                    "challengeId": .string(challenge.id.rawValue), "won": .boolean(result.won),
                    "completed": .boolean(challenge.rule.completes(result.finalValue)),
                ]
            )
        }
        let wins = results.filter(\.won).compactMap { result -> AnalyticsEvent? in
            people[result.userID].map { person in
                .server(
                    .challengeWon,
                    key: challenge.id.rawValue,
                    of: person,
                    at: now,
                    properties: ["challengeId": .string(challenge.id.rawValue)]
                )
            }
        }
        try await self.analytics.record(events + wins, in: tx)
    }

    /// Cancels a challenge that has started with fewer than its least number of participants; answers
    /// whether it did. Every stake is owed back.
    @discardableResult
    private func cancelShortOfQuorum(_ challenge: Challenge, in tx: Transaction, now: Date) async throws -> Bool {
        let participants = try await tx.challenges.participants(of: challenge.id)
        guard participants.count < challenge.minParticipants else { return false }
        var results: [ChallengeParticipant] = []
        for var participant in participants {
            if participant.staked > 0 {
                participant.payout = participant.staked
                participant.updatedAt = now
                try await tx.challenges.save(participant)
            }
            results.append(participant)
        }
        try await tx.challenges.markCancelled(challenge.id, at: now)
        try await self.tellResults(challenge, participants: results, refunded: true, in: tx, now: now)
        try await tx.enqueue([try self.job(Self.payout, challenge.id, at: now)], at: now)
        return true
    }

    /// Pays what settlement (or a cancellation) noted, one person per transaction: the person's lock, then
    /// the challenge's; a row already paid is passed over.
    public func payOut(_ id: Challenge.ID) async throws {
        let owed = try await self.store.read { tx in try await tx.challenges.unpaid(of: id) }
        for row in owed {
            let now = self.clock.now()
            try await self.store.transaction { tx in
                guard let person = try await tx.users.locked(row.userID), try await tx.challenges.locked(id) != nil,
                    var participant = try await tx.challenges.participant(row.userID, in: id),
                    participant.paidAt == nil, participant.payout > 0
                else { return }
                let (reason, key) =
                    participant.won
                    ? (PointsLine.Reason.stakePayout, "stake_payout:\(id)")
                    : (.stakeRefund, "stake_refund:\(id):settled")
                _ = try await self.rewards.moveStake(
                    participant.payout,
                    reason,
                    key: key,
                    challenge: id,
                    of: person,
                    in: tx,
                    now: now
                )
                try await tx.challenges.adjust(id, participants: 0, escrow: -participant.payout)
                participant.paidAt = now
                try await tx.challenges.save(participant)
            }
        }
    }
}
