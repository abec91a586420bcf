import FitCircleCore
import FitCircleStore
import Foundation

/// Friends who asked to hear of each new workout hear of it (`friend_activity`), and each new workout enters
/// the friends' feeds (its author's at once, by the store), from jobs queued with the workout.
struct WorkoutNews: IngestReaction {
    let profile: RuleProfile
    let ids: IDGenerator

    func react(to ingested: inout Ingested, in tx: Transaction) async throws {
        let now = ingested.now
        let announcements = try ingested.created.compactMap {
            try Friends.announcing($0, catalog: self.profile.notifications, ids: self.ids, at: now)
        }
        let fanOuts = try ingested.created.compactMap { try Friends.fanningOut($0, ids: self.ids, at: now) }
        try await tx.enqueue(announcements + fanOuts, at: now)
    }
}
