import FitCircleAPI
import FitCircleCore
import FitCircleEngine

/// `GET /api/competitions/{id}/leaderboard`'s first page (what an app polls during a challenge): the same use
/// case and mapping as the generated handler, written by hand. A `cursor` or `limit` goes the generated way.
/// Each viewer's page is kept with its version (`Challenges.PageVersion`) and served again, without its rows
/// or its JSON being made, while nothing it is made of has changed (a running challenge's time remaining
/// moves it on every second).
struct ChallengeBoardRead: HotRead {
    struct PageKey: Hashable, Sendable {
        var viewer: User.ID
        var challenge: Challenge.ID
    }

    let engine: Engine
    let kept: KeptAnswers<PageKey, Challenges.PageVersion>
    let operationID = "getCompetitionLeaderboard"
    let path = "/api/competitions/{id}/leaderboard"

    func input(path: [Substring], query: some Sequence<(key: Substring, value: Substring)>) -> Challenge.ID? {
        guard let id = path.first, !query.contains(where: { _ in true }) else { return nil }
        return Challenge.ID(String(id))
    }

    func answer(_ id: Challenge.ID, for caller: Caller) async throws -> HotAnswer {
        let key = PageKey(viewer: caller.userID, challenge: id)
        let challenges = self.engine.challenges
        if var answer = try await self.kept.answer(
            key,
            at: { try await challenges.firstPageVersion(of: id, for: caller) }
        ) {
            answer.wasKept = true
            return answer
        }
        let board = try await challenges.leaderboard(id, for: caller)
        var json = JSONWriter(capacity: 8192)
        try Components.Schemas.CompetitionLeaderboard(board).json(&json)
        let answer = HotAnswer(json: json.bytes)
        if let version = board.version { self.kept.keep(answer, for: key, at: version) }
        return answer
    }
}
