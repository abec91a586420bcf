import FitCircleCore
import FitCircleStore
import Foundation

/// What a group of inputs written by `Ingest` made, handed to each reaction in turn. Reactions read it and
/// may leave something for the ones after them (a streak for the points, analytics events to record).
struct Ingested {
    /// The submitters, locked for the transaction.
    let users: [User.ID: User]
    /// The inputs this group created (not replays or refusals), in the order they came.
    let created: [ActivityEvent]
    /// The days rebuilt from their events.
    let days: [(user: User.ID, day: DailyTracking)]
    let now: Date
    /// Each user's streak where it moved (`StreakMoves`), for the points that depend on it.
    var streaks: [User.ID: Streak] = [:]
    /// Server analytics events the reactions before `InputAnalytics` tell (it records them after the inputs' own):
    /// a reaction that tells one runs before it in `Ingest.reactions`.
    var analytics: [AnalyticsEvent] = []
    /// What each created input earned (`RewardCredits`), for its answer.
    var rewards: [ActivityEvent.ID: Reward] = [:]
}

/// A feature's follow-up of new inputs, run inside ingest's transaction: what it writes commits, or rolls
/// back, with the inputs. `Ingest.reactions` lists them in the order they run.
protocol IngestReaction: Sendable {
    func react(to ingested: inout Ingested, in tx: Transaction) async throws
}
