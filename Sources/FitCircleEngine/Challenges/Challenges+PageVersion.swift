public import FitCircleCore
public import FitCircleStore
public import Foundation

/// A viewer's first page of a challenge's board, versioned (issue 42) as a circle's is (`Circles.PageVersion`):
/// the server keeps the answer it wrote for each viewer and serves it again, or answers `304`, while the
/// version is unchanged (`ChallengeBoardRead`).
extension Challenges {
    /// Everything a first page is made of, as one value: the board's version in this node's index (every
    /// claim, here or on another node), the generation of the store's memory (the challenge, the caller's row,
    /// the roster, names, photos, privacy, friendships, blockers), and the status and time remaining the page
    /// shows (so a page is kept for a second at most while the challenge runs). Each is read before what it
    /// covers.
    public struct PageVersion: Hashable, Sendable {
        let index: UInt64
        let memory: UInt64
        let status: Challenge.Status
        let secondsRemaining: Int
    }

    /// The version the caller's first page would be built at now, after the same access decision as
    /// `leaderboard` (and its errors), recording the view as it does. Nil when a page is not made from memory
    /// alone, and so never kept: the board not in this node's index, the memory not serving, or the challenge
    /// settled (each row's result is read by SQL).
    public func firstPageVersion(of id: Challenge.ID, for caller: Caller) async throws -> PageVersion? {
        let (generation, now) = (self.store.cacheGeneration, self.clock.now())
        let found = try await self.allowedFromMemory(.read, id, by: caller.userID)
        try await self.recordBoardView(of: id, by: caller, at: now)
        return self.pageVersion(
            of: self.view(found.challenge, me: found.me, tally: found.tally, now: now),
            generation: generation
        )
    }

    func pageVersion(of view: View, generation: UInt64?) -> PageVersion? {
        guard let generation, view.status != .settled, let index = self.events.indexes.version(of: view.challenge.board)
        else { return nil }
        return PageVersion(
            index: index,
            memory: generation,
            status: view.status,
            secondsRemaining: view.secondsRemaining
        )
    }

    func recordBoardView(of id: Challenge.ID, by caller: Caller, at now: Date) async throws {
        try await self.analytics.recordView(
            .leaderboardViewed,
            of: "board:\(id.rawValue)",
            by: caller,
            at: now,
            properties: ["board": .string("challenge"), "challengeId": .string(id.rawValue)],
            in: self.store
        )
    }
}
