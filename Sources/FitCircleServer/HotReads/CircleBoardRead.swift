import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Hummingbird

/// `GET /api/fitcircles/{id}/leaderboard`'s first page (what an app polls): the same use case and mapping
/// as the generated handler, written by hand. A `cursor` or `limit` goes the generated way. Each viewer's
/// page is kept with its version (`Circles.PageVersion`) and served again, without its rows or its JSON
/// being made, while nothing it is made of has changed.
struct CircleBoardRead: HotRead {
    struct PageKey: Hashable, Sendable {
        var viewer: User.ID
        var circle: FitCircle.ID
        var period: BoardPeriod
    }

    let engine: Engine
    let kept: KeptAnswers<PageKey, Circles.PageVersion>
    let operationID = "getFitCircleLeaderboard"
    let path = "/api/fitcircles/{id}/leaderboard"

    func input(path: [Substring], query: some Sequence<(key: Substring, value: Substring)>) -> (
        circle: FitCircle.ID, period: BoardPeriod
    )? {
        guard let id = path.first, let period = Self.period(query) else { return nil }
        return (FitCircle.ID(String(id)), period)
    }

    func answer(_ input: (circle: FitCircle.ID, period: BoardPeriod), for caller: Caller) async throws -> HotAnswer {
        let key = PageKey(viewer: caller.userID, circle: input.circle, period: input.period)
        let circles = self.engine.circles
        if var answer = try await self.kept.answer(
            key,
            at: { try await circles.firstPageVersion(of: input.circle, period: input.period, for: caller) }
        ) {
            answer.wasKept = true
            return answer
        }
        let board = try await circles.leaderboard(
            of: input.circle,
            period: input.period,
            after: nil,
            limit: nil,
            for: caller
        )
        var json = JSONWriter(capacity: 4096)
        try Components.Schemas.Leaderboard(board).json(&json)
        let answer = HotAnswer(
            json: json.bytes,
            headers: [.fitCircleBoardSource: board.fromIndex ? "index" : "database"]
        )
        if let version = board.version { self.kept.keep(answer, for: key, at: version) }
        return answer
    }

    /// The period of a query that has nothing but `period` (weekly when absent); nil for anything else.
    static func period(_ query: some Sequence<(key: Substring, value: Substring)>) -> BoardPeriod? {
        var period: Components.Schemas.BoardPeriod?
        for (name, value) in query {
            guard name == "period", period == nil, let named = Components.Schemas.BoardPeriod(rawValue: String(value))
            else { return nil }
            period = named
        }
        return try? (period ?? .weekly).period
    }
}
