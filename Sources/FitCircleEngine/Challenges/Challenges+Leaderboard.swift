public import FitCircleCore
public import FitCircleStore
public import Foundation

/// A challenge's board (spec 004 R9): every participant ranked by the rule's measure, the caller's own
/// row always there and marked, the time remaining, and once settled who won and what each was paid.
/// Read like a circle's board (`BoardReader`: this node's index when loaded, else SQL), names as each
/// person's board-name audience allows; the challenge, the caller's row, the people and the roster from
/// this node's memory (`Store+Cached`), so a warm read of a running challenge's board runs no SQL (a
/// settled one reads its page's results).
extension Challenges {
    public struct Row: Equatable, Sendable {
        /// Nil for a participant with nothing counted yet.
        public var rank: Int?
        public var user: User.ID
        public var displayName: String
        public var anonymous: Bool
        public var hasPhoto: Bool
        /// In the rule's unit (pace in seconds per kilometre).
        public var value: Double?
        public var reachedAt: Date?
        public var isCaller: Bool
        /// Set once the challenge has settled.
        public var won: Bool?
        public var payout: Int?
    }

    public struct Leaderboard: Equatable, Sendable {
        public var view: View
        public var rows: [Row]
        /// Participants on the board (with something counted).
        public var entries: Int
        public var nextCursor: BoardKey?
        /// The first page's version when it was made from memory alone (`PageVersion`); nil otherwise.
        public var version: PageVersion?
    }

    /// A page's rows when the caller does not say.
    public static let boardPageSize = 50

    /// The first `limit` rows (or those after `cursor`), and the caller's own wherever it is; a view of the board.
    public func leaderboard(
        _ id: Challenge.ID,
        for caller: Caller,
        after cursor: BoardKey? = nil,
        limit: Int = boardPageSize
    ) async throws -> Leaderboard {
        let (generation, now, user) = (self.store.cacheGeneration, self.clock.now(), caller.userID)
        let found = try await self.allowedFromMemory(.read, id, by: user)
        let view = self.view(found.challenge, me: found.me, tally: found.tally, now: now)
        try await self.recordBoardView(of: id, by: caller, at: now)
        let version =
            cursor == nil && limit == Self.boardPageSize ? self.pageVersion(of: view, generation: generation) : nil
        let reader = BoardReader(board: view.challenge.board, indexes: self.events.indexes, store: self.store)
        reader.loadInBackground()
        let page = try await reader.page(after: cursor, limit: limit)
        let entries = try await reader.count()
        var ranked = page
        var unranked: [User.ID] = []
        if view.me?.state == .joined, !page.contains(where: { $0.key.user == user }) {
            if let key = try await reader.key(of: user) {
                ranked.append((try await reader.rank(of: key), key))
            } else if cursor == nil {
                unranked.append(user)
            }
        }
        if cursor == nil, entries <= limit, view.participants <= limit {
            // A small board lists everyone in it, those yet to count anything last.
            let onBoard = Set(ranked.map(\.key.user))
            unranked = try await self.store.cachedChallengeParticipants(of: id).filter { !onBoard.contains($0) }
        }
        let shownUsers = ranked.map(\.key.user) + unranked
        let people = try await self.store.cachedPeople(shownUsers, rankedIn: view.challenge.board)
        let naming = try await Circles.Naming.of(
            user,
            for: people.values.flatMap { [$0.nameAudience] + ($0.photo.map { [$0.audience] } ?? []) },
            store: self.store
        )
        let settled = view.status == .settled
        // Once settled, each row's result (the rows of this page only: a board may hold 100,000).
        let results =
            settled
            ? try await self.store.read { tx in try await tx.challenges.participants(of: id, among: shownUsers) } : [:]
        func row(_ person: User.ID, rank: Int?, key: BoardKey?) -> Row {
            let shown = naming.shown(people[person], person)
            return Row(
                rank: rank,
                user: person,
                displayName: shown.name,
                anonymous: shown.anonymous,
                hasPhoto: shown.hasPhoto,
                value: key.map { view.challenge.rule.shown($0.value) },
                reachedAt: key?.reachedAt,
                isCaller: person == user,
                won: settled ? results[person]?.won ?? false : nil,
                payout: settled ? results[person]?.payout ?? 0 : nil
            )
        }
        let rows =
            ranked.map { row($0.key.user, rank: $0.rank, key: $0.key) } + unranked.map { row($0, rank: nil, key: nil) }
        return Leaderboard(
            view: view,
            rows: rows,
            entries: entries,
            nextCursor: page.count == limit ? page.last?.key : nil,
            version: version
        )
    }
}

extension Challenges {
    /// The board's changes as they happen (spec 004 R9.2), for whoever may read it: each participant's new
    /// value (in the rule's unit) and rank, named as the reader sees them. How long it lasts is the caller's
    /// (the server's `OpenStreams` ends it). The state kept between events: the people read so far.
    public func stream(of id: Challenge.ID, for user: User.ID) async throws -> ToldEvents<
        [User.ID: BoardPerson], [(update: RankUpdate, anonymous: Bool)]
    > {
        let naming = try await self.store.read { tx in
            _ = try await self.allowed(.read, id, by: user, in: tx)
            return Circles.Naming(
                viewer: user,
                friends: try await tx.friends.ids(of: user),
                blockers: try await tx.friends.blockers(of: user)
            )
        }
        return ToldEvents(self.events.subscribe(to: .challenge(id)), state: [:]) { people, event in
            let unknown = Array(Set(event.ranks.map(\.user)).filter { people[$0] == nil })
            if !unknown.isEmpty, let found = try? await self.store.read({ tx in try await tx.circles.people(unknown) })
            {
                people.merge(found) { _, new in new }
            }
            let known = people
            return event.ranks.map { ($0, naming.shown(known[$0.user], $0.user).anonymous) }
        }
    }
}
