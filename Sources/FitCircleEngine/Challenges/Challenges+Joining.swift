public import FitCircleCore
import FitCircleStore
import Foundation

/// Joining, declining and leaving. Each locks the person before the challenge (as the payouts do), so a
/// stake and the escrow it goes to move in one transaction and concurrent joins never spend twice.
extension Challenges {
    /// Joins (a public challenge, a private one with its code, or an invitation) until it ends. Joining
    /// again answers the same. A stake needs the XP: refused (409) when the balance is short.
    public func join(_ id: Challenge.ID, code: String?, by user: User.ID) async throws -> View {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            guard let person = try await tx.users.locked(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            let (challenge, me) = try await self.allowed(.join, id, by: user, code: code, locked: true, in: tx)
            if me?.state == .joined { return try await self.view(challenge, for: user, in: tx, now: now) }
            switch challenge.status(at: now) {
            case .scheduled, .active: break
            case .ended, .settled: throw DomainError.refused(Refusal(.challengeClosed, "This challenge has ended."))
            case .cancelled: throw DomainError.refused(Refusal(.challengeClosed, "This challenge was cancelled."))
            }
            guard try await tx.challenges.tally(of: id).participants < challenge.maxParticipants else {
                throw DomainError.refused(
                    Refusal(
                        .full,
                        "This challenge is full (\(challenge.maxParticipants) participants).",
                        facts: ["limit": .number(challenge.maxParticipants)]
                    )
                )
            }
            try await self.enter(person, into: challenge, invitedBy: me?.invitedBy, in: tx, now: now)
            // The host's "Popular Host" counts each person once (not a return after leaving), their badges set
            // by a job under their own lock.
            if me?.state != .left, challenge.creatorID != user {
                try await tx.challenges.count(.hosted, of: challenge.creatorID, at: now)
                try await tx.enqueue(
                    try self.badgeJobs(for: [challenge.creatorID], key: "joined:\(id):\(user)", at: now),
                    at: now
                )
            }
            return try await self.view(challenge, for: user, in: tx, now: now)
        }
    }

    /// Declines an invitation.
    public func decline(_ id: Challenge.ID, by user: User.ID) async throws -> View {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            let (challenge, me) = try await self.allowed(.decline, id, by: user, locked: true, in: tx)
            guard var row = me else { throw DomainError.notFound(resource: "challenge", id: id.rawValue) }
            row.state = .declined
            row.updatedAt = now
            try await tx.challenges.save(row)
            return try await self.view(challenge, for: user, in: tx, now: now)
        }
    }

    /// Leaves before the start, the stake refunded at once; once it has started a participant stays in.
    public func leave(_ id: Challenge.ID, by user: User.ID) async throws -> View {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            guard let person = try await tx.users.locked(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            let (challenge, me) = try await self.allowed(.leave, id, by: user, locked: true, in: tx)
            guard var row = me else { throw DomainError.notFound(resource: "challenge", id: id.rawValue) }
            guard challenge.status(at: now) == .scheduled else {
                throw DomainError.refused(Refusal(.challengeClosed, "A challenge can be left only before it starts."))
            }
            if row.staked > 0 {
                _ = try await self.rewards.moveStake(
                    row.staked,
                    .stakeRefund,
                    key: "stake_refund:\(id):\(self.ids.make(PointsLine.self))",
                    challenge: id,
                    of: person,
                    in: tx,
                    now: now
                )
            }
            try await tx.challenges.adjust(id, participants: -1, escrow: -row.staked)
            row.state = .left
            row.staked = 0
            row.updatedAt = now
            try await tx.challenges.save(row)
            return try await self.view(challenge, for: user, in: tx, now: now)
        }
    }

    /// Puts `person` in (their stake into escrow) and onto the board with what already counts.
    func enter(_ person: User, into challenge: Challenge, invitedBy: User.ID? = nil, in tx: Transaction, now: Date)
        async throws
    {
        if challenge.stake > 0 {
            let balance = try await tx.points.stats(of: person.id)?.totalPoints ?? 0
            guard balance >= challenge.stake else {
                throw DomainError.refused(
                    Refusal(
                        .insufficientXP,
                        "Joining stakes \(challenge.stake) XP and you have \(balance) XP.",
                        facts: ["xpNeeded": .number(challenge.stake), "xpAvailable": .number(balance)]
                    )
                )
            }
            _ = try await self.rewards.moveStake(
                -challenge.stake,
                .stake,
                key: "stake:\(challenge.id):\(self.ids.make(PointsLine.self))",
                challenge: challenge.id,
                of: person,
                in: tx,
                now: now
            )
        }
        try await tx.challenges.save(
            ChallengeParticipant(
                challengeID: challenge.id,
                userID: person.id,
                state: .joined,
                staked: challenge.stake,
                invitedBy: invitedBy,
                updatedAt: now
            )
        )
        try await tx.challenges.adjust(challenge.id, participants: 1, escrow: challenge.stake)
        try await self.scoring.restate([person.id], in: tx, now: now)
    }
}
