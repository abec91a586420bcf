import FitCircleCore
import FitCircleStore
import Foundation

/// Keeps participants' places on the boards of their challenges in step with their activities and
/// points, inside the transaction that recorded (or deleted) them or credited points without one (a goal
/// seen met, a claim, a badge): a participant's score is restated from their workouts and earnings in the
/// span (`ChallengeRule.score`), so late syncs, deletions and replays agree. The
/// change reaches the other nodes with the commit and this node's index and streams right after it.
struct ChallengeScoring: Sendable {
    let events: BoardEvents
    let catalog: NotificationCatalog
    let ids: IDGenerator

    /// Restates `users` on every challenge they are in that still takes activities.
    func restate(_ users: Set<User.ID>, in tx: Transaction, now: Date) async throws {
        guard !users.isEmpty else { return }
        var events: [BoardEvent] = []
        for (user, challenge) in try await tx.challenges.scoring(users.sorted(), at: now) {
            let board = challenge.board
            let key = try await Self.score(of: user, in: challenge, tx: tx)
            let old = try await tx.boards.score(on: board, of: user)
            guard key != old else { continue }
            let before = if let old { try await self.rank(of: old, on: board, in: tx) } else { Int?.none }
            let leader = try await tx.boards.keys(board, after: nil, limit: 1).first
            if let key {
                try await tx.boards.saveScore(key, on: board)
            } else {
                try await tx.boards.deleteScore(on: board, of: user)
            }
            let rank = if let key { try await self.rank(of: key, on: board, in: tx) } else { Int?.none }
            if challenge.status(at: now) == .active {
                try await self.tell(
                    user,
                    in: challenge,
                    old: old,
                    new: key,
                    before: before,
                    after: rank,
                    leader: leader?.user,
                    tx: tx,
                    now: now
                )
            }
            let update = RankUpdate(
                period: board.period,
                periodStart: board.start,
                user: user,
                value: key.map { challenge.rule.shown($0.value) },
                rank: rank
            )
            events.append(
                self.events.event(
                    .challenge(challenge.id),
                    changes: [BoardChange(board: board, user: user, key: key)],
                    ranks: [update]
                )
            )
        }
        try await self.events.announce(events, in: tx)
    }

    /// The participant's score from what they did in the span; nil when nothing counts yet. Private
    /// workouts do not count: the board is seen by the others (`ActivityAccess.countedOnSharedBoards`).
    static func score(of user: User.ID, in challenge: Challenge, tx: Transaction) async throws -> BoardKey? {
        var entries: [ChallengeEntry] = []
        if challenge.rule.metric == .xp {
            for earning in try await tx.challenges.earnings(of: user, from: challenge.startsAt, to: challenge.endsAt)
            where earning.amount != 0 {
                entries.append(
                    ChallengeEntry(
                        at: earning.at,
                        localDate: earning.date,
                        kind: .points(earning.amount),
                        key: earning.id
                    )
                )
            }
        } else {
            for event in try await tx.challenges.workouts(
                of: user,
                from: challenge.countsWorkoutsFrom,
                to: challenge.endsAt
            ) {
                guard case .workout(let workout) = event.payload,
                    ActivityAccess.countedOnSharedBoards.contains(event.visibility)
                else { continue }
                let zone = TimeZone(identifier: event.timeZone) ?? .gmt
                entries.append(.workout(workout, startedAt: event.occurredAt, in: zone, key: event.id.rawValue))
            }
        }
        return challenge.rule.score(entries, since: challenge.startsAt).map {
            BoardKey.truncated(value: $0.value, reachedAt: $0.reachedAt, user: user)
        }
    }

    /// What a move on the board is news of (spec 002 §2, spec 004 R10.5): to whom it took the lead from,
    /// "… just took the lead"; to the mover, a climb of three places or more, and 80 % of a target.
    private func tell(
        _ user: User.ID,
        in challenge: Challenge,
        old: BoardKey?,
        new: BoardKey?,
        before: Int?,
        after: Int?,
        leader: User.ID?,
        tx: Transaction,
        now: Date
    ) async throws {
        var candidates: [(User.ID, NotificationCandidate)] = []
        let stamp = "\(challenge.id):\(self.ids.uuidV7().lowercased())"
        let data = Challenges.data(challenge)
        // Someone who blocked the mover (or whom the mover blocked) hears nothing of them (`FriendAccess.notify`).
        if after == 1, let leader, leader != user,
            FriendAccess.decide(.notify, isSelf: false, try await tx.friends.edge(from: user, to: leader)) == .allowed,
            let mover = try await tx.users.find(user)
        {
            let name = try await Challenges.name(of: mover, seenBy: leader, in: tx)
            candidates.append(
                (
                    leader,
                    NotificationCandidate(
                        type: .challengeLeadTaken,
                        dedupeKey: "challenge_lead_taken:\(stamp)",
                        data: data.merging(["name": name ?? ProfileAccess.anonymousMember]) { $1 },
                        actor: name == nil ? nil : user
                    )
                )
            )
        }
        if let before, let after, before - after >= 3 {
            candidates.append(
                (
                    user,
                    NotificationCandidate(
                        type: .challengeRankChange,
                        dedupeKey: "challenge_rank_change:\(stamp)",
                        data: data.merging(["rank": "\(after)"]) { $1 }
                    )
                )
            )
        }
        let rule = challenge.rule
        if rule.goal != .most, rule.higherWins, let target = rule.target, let value = new?.value,
            value >= 0.8 * target, value < target, (old?.value ?? 0) < 0.8 * target
        {
            candidates.append(
                (
                    user,
                    NotificationCandidate(
                        type: .challengeNearGoal,
                        dedupeKey: "challenge_near_goal:\(challenge.id)",
                        data: data.merging(["percent": "80"]) { $1 }
                    )
                )
            )
        }
        try await tx.enqueue(
            try candidates.compactMap {
                try Notifications.raising($1, for: $0, catalog: self.catalog, ids: self.ids, at: now)
            },
            at: now
        )
    }

    private func rank(of key: BoardKey, on board: BoardID, in tx: Transaction) async throws -> Int {
        if let before = self.events.indexes.read(board, { $0.countBefore(key) }) { return before + 1 }
        return try await tx.boards.countBefore(key, on: board) + 1
    }
}

extension ChallengeScoring: IngestReaction {
    /// Workouts move their challenges' boards; so do points on XP challenges (any created input may earn).
    func react(to ingested: inout Ingested, in tx: Transaction) async throws {
        try await self.restate(Set(ingested.created.map(\.userID)), in: tx, now: ingested.now)
    }
}
