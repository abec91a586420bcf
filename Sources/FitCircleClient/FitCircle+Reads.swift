import Foundation

extension FitCircle {
    public typealias StreakSummary = Components.Schemas.StreakSummary
    public typealias Circle = Components.Schemas.FitCircle
    public typealias Leaderboard = Components.Schemas.Leaderboard
    public typealias FeedPage = Components.Schemas.FriendFeedPage

    public func profile() async throws -> Profile {
        try await self.call { try await $0.getProfile().ok.body.json }
    }

    /// The streak now, freezes left, whether it is at risk, and its recent ledger. Its rules and the person's
    /// zone are kept for `localStreak()`.
    public func streak() async throws -> StreakSummary {
        let summary = try await self.call { try await $0.getCurrentStreak().ok.body.json }
        if let rules = LocalStreakKeeper.Rules(summary) { await self.streakKeeper.adopt(rules) }
        return summary
    }

    /// The streak as this device computes it, offline, with the rules the server last gave (`streak()` must
    /// have answered once): for an app-open streak, from the days this device recorded an app open. Once
    /// they have synced, the server's `streak()` answers the same. Nil before the rules are known, or for a
    /// streak of check-ins or push-ups (read those from the server).
    public func localStreak() async -> LocalStreak? {
        await self.streakKeeper.standing(at: self.configuration.now())
    }

    /// The circles the person is in, newest first: every page of them.
    public func circles() async throws -> [Circle] {
        var circles: [Circle] = []
        for try await circle in self.everyItem(of: { cursor in
            try await self.call { try await $0.listFitCircles(query: .init(cursor: cursor, limit: 200)).ok.body.json }
        }) {
            circles.append(circle)
        }
        return circles
    }

    public func leaderboard(circle id: String, period: Components.Schemas.BoardPeriod? = nil) async throws
        -> Leaderboard
    {
        try await self.call {
            try await $0.getFitCircleLeaderboard(path: .init(id: id), query: .init(period: period)).ok.body.json
        }
    }

    /// The friends' feed. The person's own waiting items are sent first (spec 004, R12.6), so their latest
    /// workout is in it; if they cannot be sent, the feed is read all the same.
    public func feed(cursor: String? = nil, limit: Int? = nil) async throws -> FeedPage {
        try? await self.sync()
        return try await self.call {
            try await $0.getFriendFeed(query: .init(limit: limit, cursor: cursor)).ok.body.json
        }
    }
}
