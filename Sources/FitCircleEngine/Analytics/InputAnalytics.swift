import FitCircleCore
import FitCircleStore
import Foundation

/// Records the server's analytics events of new inputs (an app open, a check-in) and then those the
/// reactions before it told (`Ingested.analytics`: streaks moved).
struct InputAnalytics: IngestReaction {
    let analytics: EventRecorder

    func react(to ingested: inout Ingested, in tx: Transaction) async throws {
        let now = ingested.now
        let own = ingested.created.compactMap { event in
            ingested.users[event.userID].flatMap { Self.event(of: event, by: $0, now: now) }
        }
        try await self.analytics.record(own + ingested.analytics, in: tx)
        ingested.analytics = []
    }

    /// The server's analytics event of a new input, when it tells one: an app open, a check-in (with or
    /// without yesterday's sentiment; late when it is for a past day).
    static func event(of event: ActivityEvent, by user: User, now: Date) -> AnalyticsEvent? {
        var recorded: AnalyticsEvent
        switch event.payload {
        case .appOpen:
            recorded = .server(.appOpened, key: event.clientEventID, of: user, at: event.occurredAt)
        case .checkIn(let checkIn):
            recorded = .server(
                .checkInCompleted,
                key: event.localDate.iso,
                of: user,
                at: event.occurredAt,
                properties: [
                    "sentiment": .boolean(checkIn.sentiment != nil),
                    "late": .boolean(event.localDate < user.localDate(at: now)),
                ]
            )
        default:
            return nil
        }
        // The day the input belongs to (a late check-in's, a traveller's), received now.
        recorded.localDate = event.localDate
        recorded.receivedAt = now
        return recorded
    }
}
