public import FitCircleCore
public import FitCircleStore
import Foundation

/// Boards over time: the closed periods' final ranks (history), and the refresh that restates the live
/// boards from the claims and checks this node's indexes against them.
extension Circles {
    /// A closed period's board: its first rows and the reader's own.
    public struct ClosedBoard: Equatable, Sendable {
        /// The period's start (for all-time boards, the day whose close it is).
        public var board: BoardID
        public var measure: BoardMeasure
        public var end: LocalDate?
        public var rows: [LeaderboardRow]
    }

    /// The circle's closed boards of `period`, newest first, before `before` when given.
    public func history(
        of id: FitCircle.ID,
        period: BoardPeriod,
        before: LocalDate?,
        limit: Int,
        top: Int,
        for user: User.ID
    ) async throws -> [ClosedBoard] {
        try await self.store.read { tx in
            let circle = try await self.allowed(.read, id, by: user, in: tx).circle
            let measure = BoardMeasure.of(circle.metric, period)
            var boards: [ClosedBoard] = []
            for start in try await tx.boards.snapshotKeys(of: id, period: period, before: before, limit: limit) {
                let board = BoardID(circle: id, period: period, start: start)
                var rows = try await tx.boards.snapshotRows(board, limit: top)
                if !rows.contains(where: { $0.user == user }) {
                    rows += try await tx.boards.snapshotRows(board, of: [user])
                }
                let people = try await tx.circles.people(rows.map(\.user))
                let naming = try await Naming.of(user, for: Naming.audiences(of: people.values, on: measure), in: tx)
                let memberships =
                    measure.revealsWeight ? try await tx.circles.latestMemberships(of: rows.map(\.user), in: id) : [:]
                boards.append(
                    ClosedBoard(
                        board: board,
                        measure: measure,
                        end: period == .allTime ? start : period.end(startingOn: start),
                        rows: rows.map { row in
                            let shown = naming.shown(people[row.user], row.user)
                            let value = naming.shown(
                                row.value,
                                on: measure,
                                of: people[row.user],
                                row.user,
                                membership: memberships[row.user]
                            )
                            return LeaderboardRow(
                                rank: row.rank,
                                user: row.user,
                                displayName: shown.name,
                                anonymous: shown.anonymous,
                                hasPhoto: shown.hasPhoto,
                                value: value.value,
                                percentOfGoal: value.percentOfGoal,
                                reachedAt: nil,
                                previousRank: nil,
                                isCaller: row.user == user
                            )
                        }
                    )
                )
            }
            return boards
        }
    }

    /// What a refresh found on one board.
    public struct RefreshReport: Equatable, Sendable {
        public var board: BoardID
        public var entries: Int
        /// Stored scores that differed from the claims and were rewritten.
        public var corrected: Int
        /// Rows of this node's index that differed from the claims; nil when the board was not loaded.
        public var indexDifferences: Int?
    }

    /// Restates every live board of the circle from its claims (operators only), reloads this node's
    /// indexes of them and tells the other nodes of each correction.
    public func refreshBoards(of id: FitCircle.ID, by caller: Caller) async throws -> [RefreshReport] {
        let now = self.clock.now()
        let (reports, expected, event) = try await self.store.transaction { tx in
            let circle = try await self.allowed(.refreshBoards, id, by: caller.userID, in: tx).circle
            let memberships = Dictionary(
                try await tx.circles.memberships(of: id).map { ($0.userID, $0) },
                uniquingKeysWith: { _, latest in latest }
            )
            var reports: [RefreshReport] = []
            var expected: [BoardID: [BoardKey]] = [:]
            var changes: [BoardChange] = []
            let live = self.keeper.liveBoards(of: circle, now: now)
            // One read for the four boards (the all-time one starts with the circle); each member's claims
            // are scored on each board as a claim restates them.
            let byMember = Dictionary(
                grouping: try await tx.circles.submissions(to: id, from: circle.startDate, to: nil),
                by: \.userID
            )
            for board in live {
                let keys = byMember.compactMap { user, claims in
                    BoardScore.score(
                        circle.metric,
                        on: board.period,
                        startingOn: board.start,
                        claims: claims,
                        membership: memberships[user],
                        circleEnd: circle.endDate
                    ).map { BoardKey.truncated(value: $0.value, reachedAt: $0.reachedAt, user: user) }
                }
                let byUser = Dictionary(uniqueKeysWithValues: keys.map { ($0.user, $0) })
                let stored = Dictionary(uniqueKeysWithValues: try await tx.boards.keys(board).map { ($0.user, $0) })
                var corrected = 0
                for user in Set(byUser.keys).union(stored.keys) where byUser[user] != stored[user] {
                    corrected += 1
                    if let key = byUser[user] {
                        try await tx.boards.saveScore(key, on: board)
                    } else {
                        try await tx.boards.deleteScore(on: board, of: user)
                    }
                    changes.append(BoardChange(board: board, user: user, key: byUser[user]))
                }
                let indexDifferences = self.events.indexes.read(board) { index in
                    let indexed = index.entries(ranks: 1...max(1, index.count)).map(\.user)
                    return Set(byUser.keys).union(stored.keys).union(indexed).filter { index.key(of: $0) != byUser[$0] }
                        .count
                }
                expected[board] = keys
                reports.append(
                    RefreshReport(
                        board: board,
                        entries: keys.count,
                        corrected: corrected,
                        indexDifferences: indexDifferences
                    )
                )
            }
            let event = self.events.event(id, changes: changes, ranks: [], feed: [])
            try await self.events.send([event], in: tx)
            return (reports, expected, event)
        }
        for (board, keys) in expected where self.events.indexes.read(board, { _ in true }) != nil {
            self.events.indexes.drop(board)
            if self.events.indexes.beginLoading(board) { self.events.indexes.finishLoading(board, keys: keys) }
        }
        self.events.publish([event])
        return reports
    }
}
