public import FitCircleCore
public import FitCircleStore
public import Foundation

/// The boards as members read them (spec 000, Feature 3). Order: the higher value first; on equal values,
/// who reached the value first; then the user id. Movement is measured against the board's baseline, the
/// final ranks of the period before (`BoardPeriod.baseline`).
extension Circles {
    public struct LeaderboardRow: Equatable, Sendable {
        /// Nil for a member with no claim in the period yet.
        public var rank: Int?
        public var user: User.ID
        /// The name the caller sees: "A member" for someone whose board-name audience leaves them out
        /// (`anonymous`: the row names no one, not even by id).
        public var displayName: String
        public var anonymous: Bool
        public var hasPhoto: Bool
        /// The board's measure; nil for a member with no claim, and for kilograms the caller may not see.
        public var value: Double?
        /// On boards of kilograms lost: the share of the member's goal those kilograms are.
        public var percentOfGoal: Double?
        public var reachedAt: Date?
        /// The member's rank at the baseline; nil when they were not on it.
        public var previousRank: Int?
        public var isCaller: Bool
    }

    public enum LeaderboardLayout: String, CaseIterable, Sendable {
        /// Weekly, monthly and all-time boards of circles of up to 50 members: everyone, those yet to claim last.
        case full
        /// The daily board at any size: the top 10, then the caller's own row.
        case topAndOwn = "top_and_own"
        /// Other boards of larger circles: the top 10, then the caller with 3 above and 3 below.
        case topAndAround = "top_and_around"
        /// The rows after a cursor.
        case page
    }

    public struct Leaderboard: Equatable, Sendable {
        public var board: BoardID
        public var metric: FitCircle.Metric
        /// What the values are (F3's table: steps, shares of goals, kilograms lost, streak days).
        public var measure: BoardMeasure
        public var end: LocalDate?
        /// How many members are on the board (have claimed in the period).
        public var entries: Int
        public var memberCount: Int
        public var layout: LeaderboardLayout
        public var rows: [LeaderboardRow]
        /// Where the next page starts; nil at the end of the board.
        public var nextCursor: BoardKey?
        /// Whether this node's index served the ranks (else SQL did).
        public var fromIndex: Bool
        /// The first page's version, when it was made from memory alone (`firstPageVersion`).
        public var version: PageVersion?
    }

    public static let fullRosterLimit = 50
    public static let topRows = 10
    /// Rows of a page when the caller names no `limit`.
    public static let pageSize = 50
    public static let neighbours = 3

    /// Spec 000 F3: the daily board shows "Top 10 + user's position" whatever the circle's size; the
    /// others the "full FitCircle roster (up to 50 members)", and a larger circle the top 10 and the
    /// caller with 3 above and 3 below (a circle of 51–100 members included), the rest a page at a time.
    static func layout(of period: BoardPeriod, memberCount: Int) -> LeaderboardLayout {
        if period == .daily { return .topAndOwn }
        return memberCount <= Self.fullRosterLimit ? .full : .topAndAround
    }

    /// The live board of `period` as the caller looks at it (a view of the board): the whole roster, the top
    /// and the caller's neighbourhood, or — with a `cursor` or a `limit` — a page: `limit` rows after `cursor`
    /// (from the top without one).
    public func leaderboard(
        of id: FitCircle.ID,
        period: BoardPeriod,
        after cursor: BoardKey?,
        limit: Int?,
        for caller: Caller
    ) async throws -> Leaderboard {
        let (generation, now, user) = (self.store.cacheGeneration, self.clock.now(), caller.userID)
        let found = try await self.allowed(.read, id, by: user)
        let (circle, memberCount) = (found.circle, found.memberCount)
        try await self.recordBoardView(of: id, by: caller, at: now)
        let today = circle.today(at: now)
        let board = self.liveBoard(of: circle, period: period, today: today)
        let version =
            cursor == nil && limit == nil
            ? self.pageVersion(of: board, in: circle, today: today, generation: generation) : nil
        let reader = BoardReader(board: board, indexes: self.events.indexes, store: self.store)
        let fromIndex = reader.fromIndex
        let entries = try await reader.count()
        var ranked: [(rank: Int, key: BoardKey)]
        var unranked: [User.ID] = []
        let layout =
            cursor == nil && limit == nil ? Self.layout(of: period, memberCount: memberCount) : .page
        var next: BoardKey?
        switch layout {
        case .page:
            ranked = try await reader.page(after: cursor, limit: limit ?? Self.pageSize)
            if let last = ranked.last, last.rank < entries { next = last.key }
        case .full:
            ranked = try await reader.page(after: nil, limit: max(entries, 1))
            let onBoard = Set(ranked.map(\.key.user))
            unranked = try await self.store.cachedMemberIDs(of: id).filter { !onBoard.contains($0) }
        case .topAndOwn, .topAndAround:
            ranked = try await reader.page(after: nil, limit: Self.topRows)
            if let last = ranked.last, last.rank < entries { next = last.key }
            if let own = try await reader.key(of: user) {
                let rank = try await reader.rank(of: own)
                if rank > Self.topRows {
                    let around = layout == .topAndAround ? Self.neighbours : 0
                    let lower = max(Self.topRows + 1, rank - around)
                    ranked += try await reader.ranks(lower, through: rank + around, around: own, at: rank)
                }
            } else {
                unranked = [user]
            }
        }
        if !fromIndex { reader.loadInBackground() }
        let measure = BoardMeasure.of(circle.metric, period)
        let rows = try await self.rows(
            ranked,
            unranked: unranked,
            on: board,
            measure: measure,
            caller: user,
            today: today
        )
        return Leaderboard(
            board: board,
            metric: circle.metric,
            measure: measure,
            end: period.end(startingOn: board.start),
            entries: entries,
            memberCount: memberCount,
            layout: layout,
            rows: rows,
            nextCursor: next,
            fromIndex: fromIndex,
            version: version
        )
    }

    /// Where one member stands on each live board.
    public struct Standing: Equatable, Sendable {
        public var board: BoardID
        public var measure: BoardMeasure
        public var end: LocalDate?
        public var row: LeaderboardRow
        public var entries: Int
    }

    public func standings(of member: User.ID, in id: FitCircle.ID, for user: User.ID) async throws -> [Standing] {
        let now = self.clock.now()
        let circle = try await self.allowed(.read, id, by: user).circle
        let known = try await self.store.read { tx in
            // Someone who blocked the caller does not exist for them here either (a block acts everywhere).
            if member != user, try await tx.friends.hasBlocked(member, user) { return false }
            if try await tx.circles.membership(of: member, in: id) != nil { return true }
            return !(try await tx.circles.submissions(to: id, of: member, from: circle.startDate).isEmpty)
        }
        guard known else { throw DomainError.notFound(resource: "member", id: member.rawValue) }
        var standings: [Standing] = []
        for board in self.keeper.liveBoards(of: circle, now: now) {
            let reader = BoardReader(board: board, indexes: self.events.indexes, store: self.store)
            var ranked: [(rank: Int, key: BoardKey)] = []
            if let key = try await reader.key(of: member) { ranked = [(try await reader.rank(of: key), key)] }
            let measure = BoardMeasure.of(circle.metric, board.period)
            let rows = try await self.rows(
                ranked,
                unranked: ranked.isEmpty ? [member] : [],
                on: board,
                measure: measure,
                caller: user,
                today: circle.today(at: now)
            )
            // Someone shown as "A member" cannot be looked up by id: that would name their row.
            guard !rows[0].anonymous else { throw DomainError.notFound(resource: "member", id: member.rawValue) }
            standings.append(
                Standing(
                    board: board,
                    measure: measure,
                    end: board.period.end(startingOn: board.start),
                    row: rows[0],
                    entries: try await reader.count()
                )
            )
        }
        return standings
    }

    /// `today`: the circle's day (`FitCircle.today(at:)`), found once per read: its zone's offset is the
    /// dearest part of a warm board read's version.
    func liveBoard(of circle: FitCircle, period: BoardPeriod, today: LocalDate) -> BoardID {
        // Boards of periods that closed leave this node's memory as soon as the circle is read again.
        self.events.indexes.retain(self.keeper.boards(of: circle, holding: today), of: circle.id)
        return self.keeper.board(of: circle, period: period, holding: today)
    }

    /// The rows, with names, values as the caller may see them and the baseline ranks.
    private func rows(
        _ ranked: [(rank: Int, key: BoardKey)],
        unranked: [User.ID],
        on board: BoardID,
        measure: BoardMeasure,
        caller: User.ID,
        today: LocalDate
    ) async throws -> [LeaderboardRow] {
        var seen = Set<User.ID>()
        let ranked = ranked.filter { seen.insert($0.key.user).inserted }
        let baseline = board.starting(board.period.baseline(ofPeriodStarting: board.start, today: today))
        let people = try await self.store.cachedPeople(ranked.map(\.key.user) + unranked, rankedIn: baseline)
        let naming = try await Naming.of(
            caller,
            for: Naming.audiences(of: people.values, on: measure),
            store: self.store
        )
        let memberships: [User.ID: CircleMembership] =
            if measure.revealsWeight, case .circle(let circle) = board.owner {
                try await self.store.read { tx in
                    try await tx.circles.latestMemberships(of: ranked.map(\.key.user), in: circle)
                }
            } else { [:] }
        func row(_ user: User.ID, rank: Int?, key: BoardKey?) -> LeaderboardRow {
            let person = people[user]
            let shown = naming.shown(person, user)
            let value = naming.shown(key?.value, on: measure, of: person, user, membership: memberships[user])
            return LeaderboardRow(
                rank: rank,
                user: user,
                displayName: shown.name,
                anonymous: shown.anonymous,
                hasPhoto: shown.hasPhoto,
                value: value.value,
                percentOfGoal: value.percentOfGoal,
                reachedAt: key?.reachedAt,
                previousRank: person?.baselineRank,
                isCaller: user == caller
            )
        }
        return ranked.map { row($0.key.user, rank: $0.rank, key: $0.key) }
            + unranked.map { row($0, rank: nil, key: nil) }
    }
}
