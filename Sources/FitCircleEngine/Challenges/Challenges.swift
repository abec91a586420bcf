public import FitCircleCore
public import FitCircleStore
public import Foundation

/// Challenges and competitions (specs 002 and 004; one resource): create with a rule, a span and an
/// optional XP stake, invite friends and circle mates, join (the stake moves to escrow in the same
/// transaction), decline, leave before the start, read the live board, and settle once at the end.
/// The board is the board engine's (`BoardID(challenge:start:)`), kept by `ChallengeScoring` as
/// activities arrive.
public struct Challenges: Sendable {
    let store: Store
    let profile: RuleProfile
    let ids: IDGenerator
    let clock: WallClock
    public let events: BoardEvents
    let analytics: EventRecorder

    public init(
        store: Store,
        profile: RuleProfile,
        ids: IDGenerator,
        clock: WallClock,
        events: BoardEvents,
        analytics: EventRecorder
    ) {
        self.store = store
        self.profile = profile
        self.ids = ids
        self.clock = clock
        self.events = events
        self.analytics = analytics
    }

    var rewards: RewardKeeper { RewardKeeper(profile: self.profile, ids: self.ids, analytics: self.analytics) }
    var scoring: ChallengeScoring {
        ChallengeScoring(events: self.events, catalog: self.profile.notifications, ids: self.ids)
    }

    /// A challenge as one user sees it.
    public struct View: Equatable, Sendable {
        public var challenge: Challenge
        public var status: Challenge.Status
        public var secondsRemaining: Int
        public var participants: Int
        /// XP held in escrow now.
        public var escrow: Int
        /// The viewer's row; nil when they have none.
        public var me: ChallengeParticipant?
        /// Shown only to those who may join with it: its creator and its participants.
        public var joinCodeShown: Bool
    }

    // MARK: Creating and reading

    /// Creates a challenge, from scratch or from a catalog template (`templateID`, its values the defaults):
    /// its creator joins it (staking like anyone), and each invitee is asked.
    public func create(_ input: ChallengeInput, templateID: String? = nil, by user: User.ID) async throws -> View {
        let now = self.clock.now()
        var request = input
        if let templateID {
            guard let template = self.profile.challengeTemplates.first(where: { $0.id == templateID }) else {
                throw ValidationError(
                    field: "templateId",
                    reason: "is not a template of this app (GET /api/competitions/templates lists them)"
                )
            }
            request.template = template
        }
        let input = request
        return try await self.store.transaction { tx in
            guard let creator = try await tx.users.locked(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            let zone = TimeZone(identifier: creator.profile.timeZone) ?? .gmt
            // Every bad field at once: the invitees' relationships beside the rest.
            let strangers = try await self.inviteeViolations(input.invitees, of: user, in: tx)
            let valid: ChallengeInput.Valid
            do {
                valid = try input.validated(creatorZone: zone, now: now)
                if !strangers.isEmpty { throw ValidationError(strangers) }
            } catch let error as ValidationError {
                throw ValidationError(error.violations + (error.violations == strangers ? [] : strangers))
            }
            let challenge = Challenge(
                id: self.ids.make(),
                name: valid.name,
                description: valid.description,
                type: valid.type,
                rule: valid.rule,
                visibility: valid.visibility,
                joinCode: Circles.joinCode(),
                creatorID: user,
                timeZone: creator.profile.timeZone,
                startsAt: valid.startsAt,
                endsAt: valid.endsAt,
                stake: valid.stake,
                minParticipants: valid.minParticipants,
                maxParticipants: valid.maxParticipants,
                templateID: valid.templateID,
                templateVersion: valid.templateVersion,
                createdAt: now
            )
            try await tx.challenges.insert(challenge)
            var made: [String: EventValue] = ["challengeId": .string(challenge.id.rawValue)]
            if let template = challenge.templateID { made["templateId"] = .string(template) }
            try await self.analytics.record(
                .challengeCreated,
                key: challenge.id.rawValue,
                of: creator,
                at: now,
                properties: made,
                in: tx
            )
            if let template = valid.templateID { try await tx.challenges.countUse(ofTemplate: template) }
            try await tx.challenges.count(.created, of: user, at: now)
            try await self.rewards.setCounters(
                try await Self.counters(of: [user], in: tx),
                of: [user: creator],
                in: tx,
                now: now
            )
            try await tx.enqueue(try self.lifecycleJobs(of: challenge) + self.reminderJobs(of: challenge), at: now)
            try await self.enter(creator, into: challenge, in: tx, now: now)
            for invitee in valid.invitees {
                try await tx.challenges.save(
                    ChallengeParticipant(
                        challengeID: challenge.id,
                        userID: invitee,
                        state: .invited,
                        invitedBy: user,
                        updatedAt: now
                    )
                )
            }
            try await self.tellInvitees(valid.invitees, of: challenge, by: creator, in: tx, now: now)
            return try await self.view(challenge, for: user, in: tx, now: now)
        }
    }

    /// The challenge, for whoever may know of it.
    public func challenge(_ id: Challenge.ID, for user: User.ID, code: String? = nil) async throws -> View {
        let now = self.clock.now()
        return try await self.store.read { tx in
            let (challenge, _) = try await self.allowed(.read, id, by: user, code: code, in: tx)
            return try await self.view(challenge, for: user, in: tx, now: now)
        }
    }

    /// The sizes a page of challenges may have, and its size when none is asked.
    public static let listPage = 1...100
    public static let listPageSize = 50

    /// The user's challenges (invited, running, past: spec 004 R8.9; not those they declined), newest start
    /// first, a page at a time (`after`: the page before's last; `next` is this page's last when there are
    /// more).
    public func mine(_ user: User.ID, after last: InstantKey?, limit: Int) async throws -> (
        items: [View], next: InstantKey?
    ) {
        try PageLimit.check(limit, within: Self.listPage)
        let now = self.clock.now()
        return try await self.store.read { tx in
            let page = PageOfRows(
                rows: try await tx.challenges.challenges(of: user, after: last, limit: limit + 1),
                limit: limit
            )
            var views: [View] = []
            for (challenge, participant) in page.items {
                let tally = try await tx.challenges.tally(of: challenge.id)
                views.append(self.view(challenge, me: participant, tally: tally, now: now))
            }
            return (views, page.next { InstantKey(at: $0.challenge.startsAt, id: $0.challenge.id.rawValue) })
        }
    }

    /// Public challenges still open to join, soonest end first, a page at a time (as `mine`). Those whose
    /// creator blocked the caller are left out after the read, so a page may be short and still not the last.
    public func listed(for user: User.ID, after last: InstantKey?, limit: Int) async throws -> (
        items: [View], next: InstantKey?
    ) {
        try PageLimit.check(limit, within: Self.listPage)
        let now = self.clock.now()
        return try await self.store.read { tx in
            var views: [View] = []
            let blockers = try await tx.friends.blockers(of: user)
            let page = PageOfRows(
                rows: try await tx.challenges.listed(at: now, after: last, limit: limit + 1),
                limit: limit
            )
            for challenge in page.items {
                // Those whose creator blocked the caller are not there for them (`ChallengeAccess.Facts.knowsOf`).
                let facts = ChallengeAccess.Facts(
                    visibility: challenge.visibility,
                    state: nil,
                    blockedByCreator: blockers.contains(challenge.creatorID)
                )
                guard ChallengeAccess.decide(.read, facts) == .allowed else { continue }
                views.append(try await self.view(challenge, for: user, in: tx, now: now))
            }
            return (views, page.next { InstantKey(at: $0.endsAt, id: $0.id.rawValue) })
        }
    }

    // MARK: Support

    func view(_ challenge: Challenge, for user: User.ID, in tx: Transaction, now: Date) async throws -> View {
        let me = try await tx.challenges.participant(user, in: challenge.id)
        return self.view(challenge, me: me, tally: try await tx.challenges.tally(of: challenge.id), now: now)
    }

    func view(_ challenge: Challenge, me: ChallengeParticipant?, tally: (participants: Int, escrow: Int), now: Date)
        -> View
    {
        View(
            challenge: challenge,
            status: challenge.status(at: now),
            secondsRemaining: challenge.secondsRemaining(at: now),
            participants: tally.participants,
            escrow: tally.escrow,
            me: me,
            joinCodeShown: ChallengeAccess.decide(
                .seeCode,
                .init(
                    visibility: challenge.visibility,
                    state: me?.state,
                    isCreator: me.map { $0.userID == challenge.creatorID } ?? false
                )
            ) == .allowed
        )
    }

    /// The challenge if the policy allows `action`, with the caller's row.
    func allowed(
        _ action: ChallengeAccess.Action,
        _ id: Challenge.ID,
        by user: User.ID,
        code: String? = nil,
        locked: Bool = false,
        in tx: Transaction
    ) async throws -> (Challenge, ChallengeParticipant?) {
        let found =
            !id.isWellFormed ? nil : locked ? try await tx.challenges.locked(id) : try await tx.challenges.challenge(id)
        guard let challenge = found else { throw DomainError.notFound(resource: "challenge", id: id.rawValue) }
        let me = try await tx.challenges.participant(user, in: id)
        try await Self.decide(
            action,
            challenge,
            me: me,
            by: user,
            code: code,
            blockedByCreator: { try await tx.friends.hasBlocked(challenge.creatorID, user) },
            isOperator: { try await tx.users.find(user)?.role == .operator }
        )
        return (challenge, me)
    }

    /// The same decision from this node's memory (`Store.cachedChallenge`), for the board a warm read makes
    /// without SQL; operator rights, asked only when the rest refuses, are read fresh.
    func allowedFromMemory(_ action: ChallengeAccess.Action, _ id: Challenge.ID, by user: User.ID) async throws
        -> (challenge: Challenge, me: ChallengeParticipant?, tally: (participants: Int, escrow: Int))
    {
        guard id.isWellFormed, let found = try await self.store.cachedChallenge(id, seenBy: user) else {
            throw DomainError.notFound(resource: "challenge", id: id.rawValue)
        }
        try await Self.decide(
            action,
            found.challenge,
            me: found.participant,
            by: user,
            code: nil,
            blockedByCreator: { try await self.store.cachedBlockers(of: user).contains(found.challenge.creatorID) },
            isOperator: { try await self.store.read { tx in try await tx.users.find(user)?.role == .operator } }
        )
        return (found.challenge, found.participant, found.tally)
    }

    /// `ChallengeAccess`'s decision on what the caller's row and the challenge say, the block and operator
    /// rights asked only when they matter; throws the refusal.
    private static func decide(
        _ action: ChallengeAccess.Action,
        _ challenge: Challenge,
        me: ChallengeParticipant?,
        by user: User.ID,
        code: String?,
        blockedByCreator: () async throws -> Bool,
        isOperator: () async throws -> Bool
    ) async throws {
        var facts = ChallengeAccess.Facts(
            visibility: challenge.visibility,
            state: me?.state,
            isCreator: challenge.creatorID == user,
            holdsCode: code.map { $0.uppercased() == challenge.joinCode } ?? false
        )
        if challenge.creatorID != user, me?.state != .joined { facts.blockedByCreator = try await blockedByCreator() }
        if ChallengeAccess.decide(action, facts) != .allowed { facts.isOperator = try await isOperator() }
        try ChallengeAccess.decide(action, facts).require("challenge", challenge.id.rawValue)
    }

    /// Each invitee must be someone the creator may ask (`ChallengeAccess.mayInvite`); refused, the field names them.
    private func inviteeViolations(_ invitees: [User.ID], of user: User.ID, in tx: Transaction) async throws
        -> [FieldViolation]
    {
        var validator = Validator()
        for (index, invitee) in invitees.prefix(ChallengeInput.maxInvitees).enumerated() {
            guard invitee.isWellFormed else {
                validator.fail("invitees[\(index)]", "is not a user id")
                continue
            }
            let edge = try await tx.friends.edge(from: user, to: invitee)
            let relationship = ProfileAccess.Relationship(
                isSelf: invitee == user,
                isFriend: edge.areFriends,
                sharesCircle: try await tx.circles.sharesCircle(user, invitee),
                blocked: edge.blockedByThem
            )
            validator.check(
                ChallengeAccess.mayInvite(relationship),
                "invitees[\(index)]",
                "must be one of your friends or circle mates (not yourself)"
            )
        }
        return validator.violations
    }
}
