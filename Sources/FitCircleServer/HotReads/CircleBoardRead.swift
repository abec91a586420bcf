import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Hummingbird

/// `GET /api/fitcircles/{id}/leaderboard`'s first page (what an app polls): the same use case and mapping
/// as the generated handler, written by hand. A `cursor` or `limit` goes the generated way.
struct CircleBoardRead: HotRead {
    let engine: Engine
    let operationID = "getFitCircleLeaderboard"
    let path = "/api/fitcircles/{id}/leaderboard"

    func input(path: [Substring], query: some Sequence<(key: Substring, value: Substring)>) -> (circle: FitCircle.ID, period: BoardPeriod)? {
        guard let id = path.first, let period = Self.period(query) else { return nil }
        return (FitCircle.ID(String(id)), period)
    }

    func answer(_ input: (circle: FitCircle.ID, period: BoardPeriod), for caller: Caller) async throws -> HotAnswer {
        let board = try await self.engine.circles.leaderboard(of: input.circle, period: input.period, after: nil, limit: 50, for: caller)
        var json = JSONWriter(capacity: 4096)
        try Components.Schemas.Leaderboard(board).json(&json)
        return HotAnswer(json: json.bytes, headers: [.fitCircleBoardSource: board.fromIndex ? "index" : "database"])
    }

    /// The period of a query that has nothing but `period` (weekly when absent); nil for anything else.
    static func period(_ query: some Sequence<(key: Substring, value: Substring)>) -> BoardPeriod? {
        var period: Components.Schemas.BoardPeriod?
        for (name, value) in query {
            guard name == "period", period == nil, let named = Components.Schemas.BoardPeriod(rawValue: String(value)) else { return nil }
            period = named
        }
        return try? (period ?? .weekly).period
    }
}
