public import FitCircleCore
public import FitCircleStore
public import Foundation

/// A viewer's first page of a live board, versioned (issue 42): the server keeps the answer it wrote for each
/// viewer and serves it again, or answers `304`, while the version is unchanged (`CircleBoardRead`), so an app
/// polling an unchanged board costs neither the rows nor their JSON.
extension Circles {
    /// Everything a first page is made of, as one value: the board (its period and start), its version in
    /// this node's index (every claim, here or on another node, moves it on), the generation of the store's
    /// memory (names, photos, privacy, friendships, blockers, the roster and the circle, baselines: every
    /// change moves it on), and the circle's day (movement's baseline). Each is read before what it covers,
    /// so a page built while something changed is kept under the older version and built again.
    public struct PageVersion: Hashable, Sendable {
        let board: BoardID
        let index: UInt64
        let memory: UInt64
        let today: LocalDate
    }

    /// The version the caller's first page of `period`'s board would be built at now, after the same access
    /// decision as `leaderboard` (and its errors), recording the view as it does: a page served again is a
    /// view too. Nil when a page is not made from memory alone, and so never kept: the board not in this
    /// node's index, the memory not serving, or kilograms (the members' weights are read by SQL).
    public func firstPageVersion(of id: FitCircle.ID, period: BoardPeriod, for caller: Caller) async throws
        -> PageVersion?
    {
        let (generation, now) = (self.store.cacheGeneration, self.clock.now())
        let circle = try await self.allowed(.read, id, by: caller.userID).circle
        try await self.recordBoardView(of: id, by: caller, at: now)
        let today = circle.today(at: now)
        return self.pageVersion(
            of: self.liveBoard(of: circle, period: period, today: today),
            in: circle,
            today: today,
            generation: generation
        )
    }

    func pageVersion(of board: BoardID, in circle: FitCircle, today: LocalDate, generation: UInt64?) -> PageVersion? {
        guard let generation, !BoardMeasure.of(circle.metric, board.period).revealsWeight,
            let index = self.events.indexes.version(of: board)
        else {
            return nil
        }
        return PageVersion(board: board, index: index, memory: generation, today: today)
    }

    func recordBoardView(of id: FitCircle.ID, by caller: Caller, at now: Date) async throws {
        try await self.analytics.recordView(
            .leaderboardViewed,
            of: "board:\(id.rawValue)",
            by: caller,
            at: now,
            properties: ["board": .string("circle"), "circleId": .string(id.rawValue)],
            in: self.store
        )
    }
}
