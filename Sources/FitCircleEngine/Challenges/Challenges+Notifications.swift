public import FitCircleCore
public import FitCircleJobs
public import FitCircleStore
import Foundation

/// What challenges tell their people (spec 002 §2, spec 004 R8.3, R10.3–R10.5, R16), through the
/// notification engine like everything else (preferences per type, quiet hours, caps, digests, the
/// inbox, `…/why`). Reminders before and near the end are jobs queued with the challenge, each reading
/// the challenge afresh when it runs (a cancelled one tells nobody); the daily progress goes at 08:00 in
/// each participant's zone, its tone by their place; the rest are raised where they happen.
extension Challenges {
    public static let remind = "challenges.remind"
    public static let progress = "challenges.progress"
    public static let schedules = [ZoneSchedule(kind: Self.progress, hour: 8, minute: 0)]

    /// The moments before and near the end a challenge reminds its participants of.
    enum Moment: String, Codable, CaseIterable {
        case startsTomorrow = "challenge_starts_tomorrow"
        case startsSoon = "challenge_starts_soon"
        case lastDay = "challenge_last_day"
        case endsSoon = "challenge_ends_soon"

        /// What the moment's reminder is.
        var type: RaisedType {
            switch self {
            case .startsTomorrow: .challengeStartsTomorrow
            case .startsSoon: .challengeStartsSoon
            case .lastDay: .challengeLastDay
            case .endsSoon: .challengeEndsSoon
            }
        }

        /// When, for `challenge`; nil when that moment passed before it was made (or does not fit its span).
        func instant(of challenge: Challenge) -> Date? {
            let at: Date =
                switch self {
                case .startsTomorrow: challenge.startsAt.addingTimeInterval(-86_400)
                case .startsSoon: challenge.startsAt.addingTimeInterval(-3_600)
                case .lastDay: challenge.endsAt.addingTimeInterval(-86_400)
                case .endsSoon: challenge.endsAt.addingTimeInterval(-3_600)
                }
            let fits = self == .lastDay || self == .endsSoon ? at > challenge.startsAt : true
            return at > challenge.createdAt && fits ? at : nil
        }
    }

    struct Reminder: Codable, Sendable {
        var challenge: Challenge.ID
        var moment: Moment
    }

    func reminderJobs(of challenge: Challenge) throws -> [JobRecord] {
        try Moment.allCases.compactMap { moment in
            guard let at = moment.instant(of: challenge) else { return nil }
            return JobRecord(
                id: self.ids.make(JobRecord.self).rawValue,
                kind: Self.remind,
                payload: String(
                    decoding: try JSONEncoder().encode(Reminder(challenge: challenge.id, moment: moment)),
                    as: UTF8.self
                ),
                dedupeKey: "\(Self.remind):\(challenge.id):\(moment.rawValue)",
                runAt: at,
                maxAttempts: 8
            )
        }
    }

    func registerNotificationJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        try jobs.register(Self.remind) { job in
            try await self.remind(try JSONDecoder().decode(Reminder.self, from: Data(job.payload.utf8)))
        }
        try jobs.register(Self.progress) { job in try await self.tellProgress(try ZoneBatch(job)) }
        jobs.schedule(Self.schedules)
    }

    /// A reminder's moment: every participant of a challenge still on hears it.
    private func remind(_ reminder: Reminder) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            guard let challenge = try await tx.challenges.challenge(reminder.challenge), challenge.cancelledAt == nil,
                challenge.settledAt == nil
            else { return }
            var candidates: [(User.ID, NotificationCandidate)] = []
            for participant in try await tx.challenges.participants(of: challenge.id) {
                var data = Self.data(challenge)
                data["own"] = participant.userID == challenge.creatorID ? "yes" : "no"
                var actor: User.ID?
                if reminder.moment == .startsSoon, participant.userID != challenge.creatorID,
                    let creator = try await tx.users.find(challenge.creatorID)
                {
                    let name = try await Self.name(of: creator, seenBy: participant.userID, in: tx)
                    data["name"] = name ?? ProfileAccess.anonymousMember
                    actor = name == nil ? nil : creator.id
                }
                candidates.append(
                    (
                        participant.userID,
                        NotificationCandidate(
                            type: reminder.moment.type,
                            dedupeKey: "\(reminder.moment.rawValue):\(challenge.id)",
                            data: data,
                            actor: actor
                        )
                    )
                )
            }
            try await self.raise(candidates, in: tx, now: now)
        }
    }

    /// 08:00 in a zone: each participant there of a running challenge hears where they stand, in a tone
    /// set by their place: leading, close behind (within a fifth of the leader, or in the top three),
    /// or behind ("falling behind").
    private func tellProgress(_ batch: ZoneBatch) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            var candidates: [(User.ID, NotificationCandidate)] = []
            for (user, challenge) in try await tx.challenges.running(inZone: batch.zone, at: now) {
                let board = challenge.board
                let count = try await tx.boards.count(board)
                var data = Self.data(challenge)
                data["daysLeft"] = "\(max(1, Int(challenge.endsAt.timeIntervalSince(now) / 86_400)))"
                data["count"] = "\(max(count, 1))"
                if let mine = try await tx.boards.score(on: board, of: user),
                    let top = try await tx.boards.keys(board, after: nil, limit: 1).first
                {
                    let rank = try await tx.boards.countBefore(mine, on: board) + 1
                    data["rank"] = "\(rank)"
                    let gap = top.value == 0 ? 0 : abs(top.value - mine.value) / abs(top.value)
                    data["tone"] = rank == 1 ? "leading" : (rank <= 3 || gap <= 0.2) ? "close" : "behind"
                } else {
                    data["rank"] = "\(count + 1)"
                    data["tone"] = "behind"
                }
                candidates.append(
                    (
                        user,
                        NotificationCandidate(
                            type: .challengeProgress,
                            dedupeKey: "challenge_progress:\(challenge.id):\(batch.date.iso)",
                            data: data
                        )
                    )
                )
            }
            try await self.raise(candidates, in: tx, now: now)
        }
    }

    /// The invitations of a challenge just made.
    func tellInvitees(_ invitees: [User.ID], of challenge: Challenge, by creator: User, in tx: Transaction, now: Date)
        async throws
    {
        var candidates: [(User.ID, NotificationCandidate)] = []
        for invitee in invitees {
            var data = Self.data(challenge)
            let name = try await Self.name(of: creator, seenBy: invitee, in: tx)
            data["name"] = name ?? ProfileAccess.anonymousMember
            candidates.append(
                (
                    invitee,
                    NotificationCandidate(
                        type: .challengeInvitation,
                        dedupeKey: "challenge_invitation:\(challenge.id)",
                        data: data,
                        actor: name == nil ? nil : creator.id
                    )
                )
            )
        }
        try await self.raise(candidates, in: tx, now: now)
    }

    /// The start (spec 004 R16.1), to everyone in.
    func tellStarted(_ challenge: Challenge, participants: [ChallengeParticipant], in tx: Transaction, now: Date)
        async throws
    {
        try await self.raise(
            participants.map {
                (
                    $0.userID,
                    NotificationCandidate(
                        type: .challengeStarted,
                        dedupeKey: "challenge_started:\(challenge.id)",
                        data: Self.data(challenge)
                    )
                )
            },
            in: tx,
            now: now
        )
    }

    /// The results (spec 002 post-challenge, spec 004 R8.8 and R16.5), to everyone in: the winners what
    /// they won, the others their place, and with no winner that it expired (and the stake is back). In a
    /// challenge of two, each is told who the other was ("You won the challenge against Ben!"), named as
    /// the board would name them.
    func tellResults(
        _ challenge: Challenge,
        participants: [ChallengeParticipant],
        refunded: Bool,
        in tx: Transaction,
        now: Date
    ) async throws {
        let people = try await tx.users.all(participants.map(\.userID))
        try await self.raise(
            try await self.results(challenge, participants: participants, refunded: refunded, people: people, in: tx),
            in: tx,
            now: now
        )
    }

    /// What each participant hears of the end: won, complete, or expired (stakes back); in a duel, the
    /// opponent named as the participant may see them (`people`: the participants' accounts).
    func results(
        _ challenge: Challenge,
        participants: [ChallengeParticipant],
        refunded: Bool,
        people: [User.ID: User],
        in tx: Transaction
    ) async throws -> [(User.ID, NotificationCandidate)] {
        let count = participants.count
        var candidates: [(User.ID, NotificationCandidate)] = []
        for participant in participants {
            var data = Self.data(challenge)
            data["count"] = "\(count)"
            data["rank"] = participant.finalRank.map(String.init) ?? "\(count)"
            data["xp"] = "\(max(0, participant.payout - participant.staked))"
            data["stake"] = "\(participant.staked)"
            data["refunded"] = refunded && participant.staked > 0 ? "yes" : "no"
            data["duel"] = "no"
            var actor: User.ID?
            if count == 2, let other = participants.first(where: { $0.userID != participant.userID }),
                let opponent = people[other.userID]
            {
                let name = try await Self.name(of: opponent, seenBy: participant.userID, in: tx)
                data["duel"] = "yes"
                data["opponent"] = name ?? ProfileAccess.anonymousMember
                actor = name == nil ? nil : opponent.id
            }
            let type: RaisedType = refunded ? .challengeExpired : participant.won ? .challengeWon : .challengeComplete
            candidates.append(
                (
                    participant.userID,
                    NotificationCandidate(
                        type: type,
                        dedupeKey: "\(type.rawValue):\(challenge.id)",
                        data: data,
                        actor: actor
                    )
                )
            )
        }
        return candidates
    }

    func raise(_ candidates: [(User.ID, NotificationCandidate)], in tx: Transaction, now: Date) async throws {
        try await tx.enqueue(
            try candidates.compactMap { user, candidate in
                try Notifications.raising(
                    candidate,
                    for: user,
                    catalog: self.profile.notifications,
                    ids: self.ids,
                    at: now
                )
            },
            at: now
        )
    }

    static func data(_ challenge: Challenge) -> [String: String] {
        ["challenge": challenge.name, "challengeId": challenge.id.rawValue]
    }

    /// `person`'s name as `viewer` may see it on boards, or nil for "A member".
    static func name(of person: User, seenBy viewer: User.ID, in tx: Transaction) async throws -> String? {
        let naming = try await Circles.Naming.of(viewer, for: [person.profile.visibility.boardName], in: tx)
        return naming.name(of: person.id, person.profile.displayName, audience: person.profile.visibility.boardName)
    }
}
