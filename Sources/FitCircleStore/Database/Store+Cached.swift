public import FitCircleCore

/// Reads served from this node's memory when it holds the answer (`StoreCache`), else read and kept. Each
/// answers what its statement would: a change committed before the call is always seen.
extension Store {
    /// A session with its account (`Transaction.sessionAndUser`).
    public func cachedSessionAndUser(_ id: Session.ID) async throws -> (session: Session, user: User)? {
        if let entry = self.cache.session(id) { return (entry.session, entry.user) }
        return try await self.readAndKeep({ try await $0.sessions.sessionAndUser(id) }) { found in
            [.session(StoreCache.SessionEntry(session: found.session, user: found.user))]
        }
    }

    /// A circle with `user`'s open stint in it and its member count (`Transaction.circle(_:seenBy:)`).
    public func cachedCircle(_ id: FitCircle.ID, seenBy user: User.ID) async throws -> (
        circle: FitCircle, membership: CircleMembership?, memberCount: Int
    )? {
        let key = StoreCache.CircleViewKey(circle: id, user: user)
        if let view = self.cache.circle(key) { return (view.circle, view.membership, view.memberCount) }
        return try await self.readAndKeep({ try await $0.circles.circle(id, seenBy: user) }) { found in
            [
                .circle(
                    key,
                    StoreCache.CircleView(
                        circle: found.circle,
                        membership: found.membership,
                        memberCount: found.memberCount
                    )
                )
            ]
        }
    }

    /// The circle's current members, in the order they joined (`Transaction.members(of:)`).
    public func cachedMemberIDs(of circle: FitCircle.ID) async throws -> [User.ID] {
        if let roster = self.cache.roster(circle) { return roster }
        let roster = try await self.readAndKeep({ try await $0.circles.members(of: circle).map(\.membership.userID) }) {
            [.roster(circle, $0)]
        }
        return roster ?? []
    }

    /// Names, photos and ranks on `baseline` of `users` (`Transaction.people(_:rankedIn:)`); only those
    /// this node does not hold are read.
    public func cachedPeople(_ users: [User.ID], rankedIn baseline: BoardID) async throws -> [User.ID: BoardPerson] {
        var people = self.cache.people(users, baseline: baseline)
        let missing = users.filter { people[$0] == nil }
        guard !missing.isEmpty else { return people }
        let read = try await self.readAndKeep({ try await $0.circles.people(missing, rankedIn: baseline) }) { read in
            read.map { .person(StoreCache.PersonKey(user: $0.key, baseline: baseline), $0.value) }
        }
        people.merge(read ?? [:]) { _, new in new }
        return people
    }

    /// Those who blocked `user` (`Transaction.blockers(of:)`): boards and streams read them for every viewer.
    public func cachedBlockers(of user: User.ID) async throws -> Set<User.ID> {
        if let blockers = self.cache.blockers(of: user) { return blockers }
        return try await self.readAndKeep({ try await $0.friends.blockers(of: user) }) { [.blockers(user, $0)] } ?? []
    }

    /// The user's friends (`Transaction.friendIDs(of:)`): boards read them for names shown to friends only.
    public func cachedFriendIDs(of user: User.ID) async throws -> Set<User.ID> {
        if let friends = self.cache.friends(of: user) { return friends }
        return try await self.readAndKeep({ try await $0.friends.ids(of: user) }) { [.friends(user, $0)] } ?? []
    }

    /// A challenge with `user`'s row in it, its participant count and escrow (`ChallengeQueries.challenge`,
    /// `participant`, `tally`).
    public func cachedChallenge(_ id: Challenge.ID, seenBy user: User.ID) async throws
        -> (challenge: Challenge, participant: ChallengeParticipant?, tally: (participants: Int, escrow: Int))?
    {
        let key = StoreCache.ChallengeViewKey(challenge: id, user: user)
        if let view = self.cache.challenge(key) {
            return (view.challenge, view.participant, (view.participants, view.escrow))
        }
        let found = try await self.readAndKeep({ tx -> StoreCache.ChallengeView? in
            guard let challenge = try await tx.challenges.challenge(id) else { return nil }
            let tally = try await tx.challenges.tally(of: id)
            return StoreCache.ChallengeView(
                challenge: challenge,
                participant: try await tx.challenges.participant(user, in: id),
                participants: tally.participants,
                escrow: tally.escrow
            )
        }) { [.challenge(key, $0)] }
        return found.map { ($0.challenge, $0.participant, ($0.participants, $0.escrow)) }
    }

    /// The ids of a challenge's joined participants (`ChallengeQueries.participants(of:)`).
    public func cachedChallengeParticipants(of id: Challenge.ID) async throws -> [User.ID] {
        if let roster = self.cache.challengeRoster(id) { return roster }
        return try await self.readAndKeep({ try await $0.challenges.participants(of: id).map(\.userID) }) {
            [.challengeRoster(id, $0)]
        } ?? []
    }

    /// Whether reads are served from this node's memory (on PostgreSQL: while it listens).
    public var cacheServes: Bool { self.cache.generation() != nil }

    /// The generation of this node's memory, which moves on with every change to what it holds (accounts,
    /// sessions, circles, rosters, people, blockers, friendships), here or on another node; nil when it does
    /// not serve. What was read from it after reading the generation is at least that new.
    public var cacheGeneration: UInt64? { self.cache.generation() }

    /// Reads with `read` and keeps what `entries` makes of the answer, unless a change landed meanwhile.
    private func readAndKeep<Found: Sendable>(
        _ read: @Sendable (Transaction) async throws -> Found?,
        entries: (Found) -> [StoreCache.Entry]
    ) async throws -> Found? {
        let generation = self.cache.generation()
        guard let found = try await self.read(read) else { return nil }
        if let generation { self.cache.keep(entries(found), readUnder: generation) }
        return found
    }
}
