import FitCircleCore
import FitCircleStore
import Foundation

/// Credits the new inputs that earn points or move badges, user by user, each in input order, with the
/// streak `StreakMoves` left (a streak's points depend on it).
struct RewardCredits: IngestReaction {
    let rewards: RewardKeeper
    let streaks: StreakKeeper

    func react(to ingested: inout Ingested, in tx: Transaction) async throws {
        var earning: [User.ID: [ActivityEvent]] = [:]
        for event in ingested.created where self.rewards.matters(event.payload, streaks: self.streaks) {
            earning[event.userID, default: []].append(event)
        }
        for (user, events) in earning.sorted(by: { $0.key < $1.key }) {
            guard let account = ingested.users[user] else { continue }
            let rewards = try await self.rewards.award(
                events,
                of: account,
                streak: ingested.streaks[user],
                in: tx,
                now: ingested.now
            )
            ingested.rewards.merge(rewards) { _, latest in latest }
        }
    }
}
