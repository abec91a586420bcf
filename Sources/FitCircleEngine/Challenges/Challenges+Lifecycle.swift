public import FitCircleCore
public import FitCircleJobs
public import FitCircleStore
import Foundation

/// A challenge's life as durable jobs queued when it is made: at its start the quorum is checked for one
/// made an hour or more ahead (too few participants cancels it and refunds every stake; one made to start
/// at once is judged at the end); `Challenge.settlementGrace` after its end it settles
/// (the final board, the winners by the rule, each one's payout noted, records and rivalries moved) and
/// queues the payouts; the payouts move XP out of escrow under the people's locks. Settlement and payouts
/// run in batches: many challenges due together are settled in one transaction, and paid in another, with
/// set-based statements (`JobRegistry.register(_:batchesOf:_:)`). Every step checks the challenges' state
/// under their locks and each ledger line is keyed once, so a job run twice, on two nodes, or again after
/// a crash in the middle of a batch, pays exactly once.
extension Challenges: JobOwner {
    public static let start = "challenges.start"
    public static let settle = "challenges.settle"
    public static let payout = "challenges.payout"

    struct Job: Codable, Sendable {
        var challenge: Challenge.ID
    }

    public func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        try jobs.register(Self.start) { job in try await self.begin(try Self.decode(job).challenge) }
        try jobs.register(Self.settle, batchesOf: Self.batch) { jobs in
            try await self.settle(try jobs.map { try Self.decode($0).challenge })
        }
        try jobs.register(Self.payout, batchesOf: Self.batch) { jobs in
            try await self.payOut(try jobs.map { try Self.decode($0).challenge })
        }
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

    /// How many challenges one transaction settles or pays at most.
    static let batch = 100

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
                try await self.cancelShortOfQuorum(
                    challenge,
                    joined: try await tx.challenges.participants(of: id),
                    in: tx,
                    now: now
                )
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
        try await self.settle([id])
    }

    /// Settles challenges together, in one transaction: each once (one settled or cancelled already is passed
    /// over), all read and written with set-based statements. One not due yet makes the whole call wait.
    public func settle(_ ids: [Challenge.ID]) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            let open = try await tx.challenges.locked(ids).filter { $0.settledAt == nil && $0.cancelledAt == nil }
            if let early = open.filter({ now < $0.settlesAt }).min(by: { $0.settlesAt < $1.settlesAt }) {
                throw RetryLater(
                    reason: "settles at \(early.settlesAt)",
                    after: early.settlesAt.timeIntervalSince(now)
                )
            }
            let joined = try await tx.challenges.participants(of: open.map(\.id))
            var due: [Challenge] = []
            for challenge in open {
                if try await self.cancelShortOfQuorum(challenge, joined: joined[challenge.id] ?? [], in: tx, now: now) {
                    continue
                }
                due.append(challenge)
            }
            guard !due.isEmpty else { return }
            let boards = try await tx.boards.keys(due.map(\.board))
            var settled: [Settled] = []
            for challenge in due {
                settled.append(
                    Self.settled(
                        challenge,
                        joined: joined[challenge.id] ?? [],
                        board: boards[challenge.board] ?? [],
                        at: now
                    )
                )
            }
            try await tx.challenges.save(settled.flatMap(\.results))
            try await tx.challenges.markSettled(due.map(\.id), at: now)
            try await Self.record(settled, in: tx, at: now)
            let everyone = Set(settled.flatMap { $0.results.map(\.userID) })
            let people = try await tx.users.all(everyone)
            try await self.recordFinishes(settled, of: people, in: tx, at: now)
            try await tx.enqueue(
                try self.badgeJobs(for: everyone.sorted(), key: "settled:\(due[0].id)", at: now),
                at: now
            )
            var news: [(User.ID, NotificationCandidate)] = []
            for one in settled {
                news += try await self.results(
                    one.challenge,
                    participants: one.results,
                    refunded: one.refunded,
                    people: people,
                    in: tx
                )
            }
            try await self.raise(news, in: tx, now: now)
            try await tx.enqueue(try due.map { try self.job(Self.payout, $0.id, at: now) }, at: now)
        }
    }

    /// A challenge settled: its participants' rows with their results, and whether the stakes go back.
    struct Settled {
        var challenge: Challenge
        var results: [ChallengeParticipant]
        var refunded: Bool
    }

    /// The final board read for the winners by the rule, each participant's place, value and payout (pure).
    static func settled(_ challenge: Challenge, joined: [ChallengeParticipant], board: [BoardKey], at now: Date)
        -> Settled
    {
        let standings = board.enumerated().map { index, key in
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
            stakes: Dictionary(joined.map { ($0.userID, $0.staked) }, uniquingKeysWith: { first, _ in first })
        )
        let places = Dictionary(standings.map { ($0.user, $0) }, uniquingKeysWith: { first, _ in first })
        let results = joined.map { joined in
            var participant = joined
            participant.finalRank = places[participant.userID]?.rank
            participant.finalValue = places[participant.userID].map { challenge.rule.shown($0.value) }
            participant.won = result.winners.contains(participant.userID)
            participant.payout = result.payouts[participant.userID] ?? 0
            participant.updatedAt = now
            return participant
        }
        return Settled(challenge: challenge, results: results, refunded: result.refunded)
    }

    /// Each participant's result as an analytics event (the metrics' challenge completion).
    private func recordFinishes(_ settled: [Settled], of people: [User.ID: User], in tx: Transaction, at now: Date)
        async throws
    {
        var events: [AnalyticsEvent] = []
        for one in settled {
            let challenge = one.challenge
            for result in one.results {
                guard let person = people[result.userID] else { continue }
                events.append(
                    .server(
                        .challengeFinished,
                        key: challenge.id.rawValue,
                        of: person,
                        at: now,
                        properties: [
                            "challengeId": .string(challenge.id.rawValue), "won": .boolean(result.won),
                            "completed": .boolean(challenge.rule.completes(result.finalValue)),
                        ]
                    )
                )
                if result.won {
                    events.append(
                        .server(
                            .challengeWon,
                            key: challenge.id.rawValue,
                            of: person,
                            at: now,
                            properties: ["challengeId": .string(challenge.id.rawValue)]
                        )
                    )
                }
            }
        }
        try await self.analytics.record(events, in: tx)
    }

    /// Cancels a challenge that has started with fewer than its least number of participants (`joined`, read
    /// under its lock); answers whether it did. Every stake is owed back.
    @discardableResult
    func cancelShortOfQuorum(
        _ challenge: Challenge,
        joined participants: [ChallengeParticipant],
        in tx: Transaction,
        now: Date
    ) async throws -> Bool {
        guard participants.count < challenge.minParticipants else { return false }
        var results: [ChallengeParticipant] = []
        for var participant in participants {
            if participant.staked > 0 {
                participant.payout = participant.staked
                participant.updatedAt = now
            }
            results.append(participant)
        }
        try await tx.challenges.save(results.filter { $0.staked > 0 })
        try await tx.challenges.markCancelled(challenge.id, at: now)
        try await self.tellResults(challenge, participants: results, refunded: true, in: tx, now: now)
        try await tx.enqueue([try self.job(Self.payout, challenge.id, at: now)], at: now)
        return true
    }

    /// Pays what settlement (or a cancellation) noted.
    public func payOut(_ id: Challenge.ID) async throws {
        try await self.payOut([id])
    }

    /// Pays what the settlement (or cancellation) of these challenges noted, up to `peopleAtOnce` people a
    /// transaction (a crowd's payouts lock no more than that many accounts at once): the people's locks
    /// first, then the challenges' (each in id order, the order every transaction takes them in); a row
    /// already paid is passed over, and each ledger line is keyed once.
    public func payOut(_ ids: [Challenge.ID], peopleAtOnce: Int = payoutPeople) async throws {
        let owed = try await self.store.read { tx in try await tx.challenges.owed(in: ids) }.sorted()
        let part = max(1, peopleAtOnce)
        for start in stride(from: 0, to: owed.count, by: part) {
            let group = Set(owed[start..<min(start + part, owed.count)])
            try await self.pay(group, in: ids, readingOnly: group.count < owed.count)
        }
    }

    /// How many people one payout transaction pays at most.
    public static let payoutPeople = 1_000

    /// Pays `owed` their rows of these challenges; `readingOnly` reads only theirs (one group of several),
    /// else every unpaid row of the challenges, theirs all (the usual batch).
    private func pay(_ owed: Set<User.ID>, in ids: [Challenge.ID], readingOnly: Bool) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            let people = try await tx.users.locked(owed)
            try await tx.challenges.lock(ids)
            // Read under the locks: another node may have paid some since.
            let rows = try await tx.challenges.unpaid(of: ids, among: readingOnly ? Set(people.keys) : nil)
                .sorted { $0.key < $1.key }.flatMap(\.value).filter { people[$0.userID] != nil }
            try await self.rewards.moveStakes(
                rows.compactMap { row in
                    people[row.userID].map { person in
                        RewardKeeper.StakeMove(
                            user: person,
                            amount: row.payout,
                            reason: row.won ? .stakePayout : .stakeRefund,
                            key: row.won
                                ? "stake_payout:\(row.challengeID)" : "stake_refund:\(row.challengeID):settled",
                            challenge: row.challengeID
                        )
                    }
                },
                in: tx,
                now: now
            )
            try await tx.challenges.release(
                escrow: rows.reduce(into: [:]) { escrow, row in escrow[row.challengeID, default: 0] += row.payout }
            )
            try await tx.challenges.save(
                rows.map { row in
                    var paid = row
                    paid.paidAt = now
                    return paid
                }
            )
        }
    }
}
