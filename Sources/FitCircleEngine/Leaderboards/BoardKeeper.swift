public import FitCircleCore
public import FitCircleStore
import Foundation

/// Keeps a circle's boards in step with its claims, inside the claim's transaction: a member's score on
/// each board is restated from their claims of its period (`BoardScore`), with their rank before and after
/// and whom they passed. Ranks come from this node's index of the board when it is loaded, else from SQL;
/// either way the member's own row is left out, so the answer is the place the new value takes.
struct BoardKeeper: Sendable {
    let indexes: BoardIndexes
    let weekStart: Weekday

    /// The board of each period holding `date` (a circle day).
    func boards(of circle: FitCircle, holding date: LocalDate) -> [BoardID] {
        BoardPeriod.allCases.map { self.board(of: circle, period: $0, holding: date) }
    }

    /// The board of `period` holding `date`.
    func board(of circle: FitCircle, period: BoardPeriod, holding date: LocalDate) -> BoardID {
        BoardID(
            circle: circle.id,
            period: period,
            start: period.start(of: date, weekStart: self.weekStart, circleStart: circle.startDate)
        )
    }

    /// The boards running on the circle's today.
    func liveBoards(of circle: FitCircle, now: Date) -> [BoardID] {
        self.boards(of: circle, holding: circle.today(at: now))
    }

    struct Restated: Sendable {
        var change: BoardChange
        var before: Int?
        var after: Int?
        /// Members the new value moved above (the nearest three, best placed first); weekly boards only.
        var passed: [User.ID]
    }

    /// Restates `user`'s place on every board holding `date`; answers the boards where it changed.
    func restate(_ user: User.ID, in circle: FitCircle, on date: LocalDate, in tx: Transaction, now: Date) async throws
        -> [Restated]
    {
        let claims = try await tx.circles.submissions(to: circle.id, of: user, from: circle.startDate)
        let membership = try await tx.circles.membership(of: user, in: circle.id)
        var restated: [Restated] = []
        for board in self.boards(of: circle, holding: date) {
            let key = BoardScore.score(
                circle.metric,
                on: board.period,
                startingOn: board.start,
                claims: claims,
                membership: membership,
                circleEnd: circle.endDate
            ).map {
                BoardKey.truncated(value: $0.value, reachedAt: $0.reachedAt, user: user)
            }
            let old = try await tx.boards.score(on: board, of: user)
            guard key != old else { continue }
            var before: Int?
            if let old { before = try await self.rank(of: old, on: board, in: tx) }
            var after: Int?
            if let key { after = try await self.rank(of: key, on: board, in: tx) }
            var passed: [User.ID] = []
            if board.period == .weekly, let key, let after, before.map({ after < $0 }) ?? true {
                passed = try await tx.boards.keys(board, after: key, limit: 4)
                    .filter { entry in entry.user != user && old.map { entry < $0 } ?? true }.prefix(3).map(\.user)
            }
            if let key {
                try await tx.boards.saveScore(key, on: board)
            } else {
                try await tx.boards.deleteScore(on: board, of: user)
            }
            // A late claim (a member west of the circle's home) can land in a period already closed.
            let snapshot = board.period == .allTime ? date : board.start
            if try await tx.boards.hasSnapshot(BoardID(circle: circle.id, period: board.period, start: snapshot)) {
                try await tx.boards.snapshot(board, as: snapshot, at: now)
            }
            restated.append(
                Restated(
                    change: BoardChange(board: board, user: user, key: key),
                    before: before,
                    after: after,
                    passed: passed
                )
            )
        }
        return restated
    }

    /// The rank `key` takes on the board (its member's current row aside).
    func rank(of key: BoardKey, on board: BoardID, in tx: Transaction) async throws -> Int {
        if let before = self.indexes.read(board, { $0.countBefore(key) }) { return before + 1 }
        return try await tx.boards.countBefore(key, on: board) + 1
    }
}
