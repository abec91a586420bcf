public import FitCircleCore
public import FitCircleStore
public import Foundation

/// Head-to-head (spec 002 §3): each person's record, and friends' records against each other, moved by
/// every settlement in its transaction (`ChallengeRecord`, `Rivalry`: pure steps), rebuilt by replay from
/// the settled challenges in the order they settled.
extension Challenges {
    /// Moves the participants' records and their friends' rivalries by challenges settled together, in id
    /// order (replay's order for challenges settled at one instant): one person in several of them moves
    /// by each in turn.
    static func record(_ settled: [Settled], in tx: Transaction, at now: Date) async throws {
        let settled = settled.sorted { $0.challenge.id < $1.challenge.id }
        let everyone = Array(Set(settled.flatMap { $0.results.map(\.userID) }))
        var records = try await tx.challenges.records(of: everyone, locking: now)
        let facts = try await Self.winFacts(settled.map { ($0.challenge, $0.results) }, in: tx)
        var moved: Set<User.ID> = []
        for one in settled {
            for result in one.results {
                records[result.userID] = (records[result.userID] ?? ChallengeRecord()).adding(
                    result,
                    facts: facts[one.challenge.id]?[result.userID]
                )
                moved.insert(result.userID)
            }
        }
        try await tx.challenges.save(records: records.filter { moved.contains($0.key) }, at: now)
        let pairs = try await tx.challenges.friendPairs(in: settled.map(\.challenge.id))
        guard !pairs.isEmpty else { return }
        var rivalries = try await tx.challenges.rivalries(of: pairs.values.flatMap { $0 })
        var changed: [String: (user: User.ID, rival: User.ID, rivalry: Rivalry)] = [:]
        for one in settled {
            let byUser = Dictionary(uniqueKeysWithValues: one.results.map { ($0.userID, $0) })
            let winners = one.results.filter(\.won).count
            for pair in pairs[one.challenge.id] ?? [] {
                guard let mine = byUser[pair.user], let theirs = byUser[pair.rival] else { continue }
                let key = ChallengeQueries.pairKey(pair.user, pair.rival)
                let rivalry = (rivalries[key] ?? Rivalry()).adding(mine, against: theirs, winners: winners, at: now)
                rivalries[key] = rivalry
                changed[key] = (pair.user, pair.rival, rivalry)
            }
        }
        try await tx.challenges.save(rivalries: changed.sorted { $0.key < $1.key }.map(\.value))
    }

    /// What set each winner's win apart, for many challenges at once (two reads however many): by challenge,
    /// then by winner (`winFacts(_:of:levels:starts:)`).
    static func winFacts(_ settled: [(challenge: Challenge, results: [ChallengeParticipant])], in tx: Transaction)
        async throws -> [Challenge.ID: [User.ID: ChallengeRecord.WinFacts]]
    {
        let withWinners = settled.filter { $0.results.contains(where: \.won) }
        guard !withWinners.isEmpty else { return [:] }
        let levels = try await tx.challenges.levels(of: Array(Set(withWinners.flatMap { $0.results.map(\.userID) })))
        let starts = try await tx.challenges.firstWorkouts(
            in: withWinners.map(\.challenge),
            visibilities: ActivityAccess.countedOnSharedBoards
        )
        var facts: [Challenge.ID: [User.ID: ChallengeRecord.WinFacts]] = [:]
        for one in withWinners {
            facts[one.challenge.id] = Self.winFacts(
                one.results,
                of: one.challenge,
                levels: levels,
                starts: starts[one.challenge.id] ?? [:]
            )
        }
        return facts
    }

    /// What set each winner's win apart (spec 002 §4's victory and specialty badges): the challenge's kind;
    /// someone beaten ten levels up; getting going last of all who scored ("from last place": their first
    /// workout of the span started after everyone else's); a margin under 1 % on a `most` board; the stake.
    static func winFacts(
        _ results: [ChallengeParticipant],
        of challenge: Challenge,
        levels: [User.ID: Int],
        starts: [User.ID: Date]
    ) -> [User.ID: ChallengeRecord.WinFacts] {
        let winners = results.filter(\.won)
        let ranked = results.compactMap { result in result.finalRank.map { (rank: $0, result: result) } }.sorted {
            $0.rank < $1.rank
        }.map(\.result)
        var facts: [User.ID: ChallengeRecord.WinFacts] = [:]
        for winner in winners {
            let mine = levels[winner.userID] ?? 1
            let beaten = results.filter { !$0.won }
            var fact = ChallengeRecord.WinFacts(
                kind: ChallengeRecord.WinFacts.kind(of: challenge.type, rule: challenge.rule),
                stake: challenge.stake
            )
            fact.beatSomeoneTenLevelsUp = beaten.contains { (levels[$0.userID] ?? 1) >= mine + 10 }
            if let first = starts[winner.userID] {
                let others = starts.filter { $0.key != winner.userID }.values
                fact.fromLastPlace = !others.isEmpty && others.allSatisfy { $0 < first }
            }
            if challenge.rule.goal == .most, ranked.count >= 2, ranked[0].userID == winner.userID,
                let best = ranked[0].finalValue, let next = ranked[1].finalValue, best != 0
            {
                fact.byLessThanOnePercent = abs(best - next) < 0.01 * abs(best)
            }
            facts[winner.userID] = fact
        }
        return facts
    }

    /// A person's record as anyone signed in sees it (like their badges), but someone they blocked
    /// (`ProfileAccess.Facet.challengeRecord`).
    public func record(of user: User.ID, for viewer: User.ID) async throws -> ChallengeRecord {
        try await self.store.read { tx in
            guard try await tx.users.find(user) != nil,
                ProfileAccess.mayView(
                    .challengeRecord,
                    try await Profiles.standing(of: viewer, to: user, in: tx).relationship
                )
            else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            return try await tx.challenges.records(of: [user])[user] ?? ChallengeRecord()
        }
    }

    public struct Meeting: Equatable, Sendable {
        public var challenge: Challenge
        public var outcome: Rivalry.Outcome
    }

    /// The caller against one rival: the record both ways, the last five meetings and the kinds of
    /// challenge they meet in most.
    public func rivalry(of user: User.ID, with rival: User.ID) async throws -> (
        rivalry: Rivalry, lastFive: [Meeting], favouriteTypes: [ChallengeType]
    ) {
        try await self.store.read { tx in
            guard rival.isWellFormed, try await tx.users.find(rival) != nil,
                ProfileAccess.mayView(
                    .challengeRecord,
                    try await Profiles.standing(of: user, to: rival, in: tx).relationship
                )
            else { throw DomainError.notFound(resource: "user", id: rival.rawValue) }
            let rivalry =
                try await tx.challenges.rivalries(of: [(user, rival)])[ChallengeQueries.pairKey(user, rival)]
                ?? Rivalry()
            let meetings = try await tx.challenges.meetings(of: user, with: rival, limit: 50)
            let counts = Dictionary(grouping: meetings.map(\.challenge.type), by: { $0 }).mapValues(\.count)
            let favourites = counts.sorted { ($1.value, $0.key.rawValue) < ($0.value, $1.key.rawValue) }.prefix(3).map(
                \.key
            )
            let lastFive = meetings.prefix(5).map {
                Meeting(challenge: $0.challenge, outcome: Rivalry.outcome(of: $0.mine, against: $0.theirs))
            }
            return (rivalry, Array(lastFive), Array(favourites))
        }
    }

    public struct Rival: Equatable, Sendable {
        public var user: User.ID
        /// As the caller may see them on boards ("A member" otherwise, without the id).
        public var displayName: String
        public var anonymous: Bool
        public var rivalry: Rivalry
    }

    /// The caller's rivals: those met most, the nemesis (most losses to) and the one most often beaten.
    public func rivals(of user: User.ID) async throws -> (top: [Rival], nemesis: Rival?, dominated: Rival?) {
        try await self.store.read { tx in
            let top = try await tx.challenges.rivals(of: user, by: .meetings, limit: 10)
            let nemesis = try await tx.challenges.rivals(of: user, by: .losses, limit: 1).first
            let dominated = try await tx.challenges.rivals(of: user, by: .wins, limit: 1).first
            let everyone = top + [nemesis, dominated].compactMap { $0 }
            let people = try await tx.circles.people(Array(Set(everyone.map(\.rival))))
            let naming = try await Circles.Naming.of(user, for: people.values.map(\.nameAudience), in: tx)
            func rival(_ entry: (rival: User.ID, rivalry: Rivalry)) -> Rival {
                let shown = naming.shown(people[entry.rival], entry.rival)
                return Rival(
                    user: entry.rival,
                    displayName: shown.name,
                    anonymous: shown.anonymous,
                    rivalry: entry.rivalry
                )
            }
            return (top.map(rival), nemesis.map(rival), dominated.map(rival))
        }
    }
}

extension Replay {
    /// Folds every settled challenge's results again, in settlement order, and compares the records and
    /// rivalries with those stored; with `fix`, stores the rebuilt ones.
    public func challengeRecordDifferences(fix: Bool = false) async throws -> [String] {
        try await self.store.transaction { tx in
            var records: [User.ID: ChallengeRecord] = [:]
            var rivalries: [String: (user: User.ID, rival: User.ID, rivalry: Rivalry)] = [:]
            let order = try await tx.challenges.settledOrder()
            for start in stride(from: 0, to: order.count, by: 200) {
                let page = try await tx.challenges.challenges(Array(order[start..<min(start + 200, order.count)]))
                self.progress(
                    "challenge records: \(min(start + 200, order.count)) of \(order.count) settled challenges"
                )
                let joined = try await tx.challenges.participants(of: page.map(\.id))
                let settled = page.map { ($0, joined[$0.id] ?? []) }
                let facts = try await Challenges.winFacts(settled, in: tx)
                let pairs = try await tx.challenges.friendPairs(in: page.map(\.id))
                for (challenge, results) in settled {
                    for result in results {
                        records[result.userID] = (records[result.userID] ?? ChallengeRecord()).adding(
                            result,
                            facts: facts[challenge.id]?[result.userID]
                        )
                    }
                    let byUser = Dictionary(uniqueKeysWithValues: results.map { ($0.userID, $0) })
                    let winners = results.filter(\.won).count
                    for pair in pairs[challenge.id] ?? [] {
                        guard let mine = byUser[pair.user], let theirs = byUser[pair.rival] else { continue }
                        let key = ChallengeQueries.pairKey(pair.user, pair.rival)
                        let before = rivalries[key]?.rivalry ?? Rivalry()
                        rivalries[key] = (
                            pair.user, pair.rival,
                            before.adding(
                                mine,
                                against: theirs,
                                winners: winners,
                                at: challenge.settledAt ?? challenge.endsAt
                            )
                        )
                    }
                }
            }
            let stored = try await tx.challenges.allRecords()
            // What set a win apart (levels then, the first workouts then) is a fact of its time, as a
            // ledger line's detail is: kept from the stored record, not judged again.
            for (user, var record) in records {
                guard let kept = stored.records[user] else { continue }
                record.winsByKind = kept.winsByKind
                record.largestStakeWon = kept.largestStakeWon
                records[user] = record
            }
            var problems: [String] = []
            for (user, record) in records.sorted(by: { $0.key < $1.key }) where stored.records[user] != record {
                problems.append(
                    "user \(user): challenge record stored \(stored.records[user].map { "\($0.wins)/\($0.challenges)" } ?? "none"), the settled challenges make \(record.wins)/\(record.challenges)"
                )
            }
            // A rivalry's last meeting is the settlement's instant when kept, the challenge's when rebuilt: compared without it.
            func counts(_ rivalry: Rivalry?) -> [Int]? {
                rivalry.map { [$0.wins, $0.losses, $0.draws, $0.xpWon, $0.xpLost, $0.streak] }
            }
            for (key, entry) in rivalries.sorted(by: { $0.key < $1.key })
            where counts(stored.rivalries[key]) != counts(entry.rivalry) {
                problems.append(
                    "rivalry \(entry.user) against \(entry.rival): stored \(counts(stored.rivalries[key]) ?? []), the settled challenges make \(counts(entry.rivalry) ?? [])"
                )
            }
            if fix && !problems.isEmpty {
                try await tx.challenges.save(records: records, at: self.clock.now())
                try await tx.challenges.save(rivalries: Array(rivalries.values))
            }
            return problems
        }
    }
}
