public import FitCircleCore
public import FitCircleStore
public import Foundation
import Synchronization

/// Writes analytics events into the caller's transaction: the apps' batches and the server's own events
/// (`ServerEvent`), which the use cases record beside what they tell of. New events are marked for the
/// forwarder only while forwarding is configured, and the server's go to the webhooks subscribed to them.
public struct EventRecorder: Sendable {
    let forward: Bool
    /// The server's new events go to the webhook endpoints subscribed to them.
    let webhooks: WebhookFanout
    private let viewed: RecentViews

    public init(forward: Bool, webhooks: WebhookFanout) {
        self.forward = forward
        self.webhooks = webhooks
        self.viewed = RecentViews()
    }

    @discardableResult
    func record(_ events: [AnalyticsEvent], in tx: Transaction) async throws -> Set<EventKey> {
        guard !events.isEmpty else { return [] }
        let stored = try await tx.events.record(events, forward: self.forward)
        try await self.webhooks.fanOut(events, stored: stored, in: tx, at: events[0].receivedAt)
        return stored
    }

    func record(
        _ event: ServerEvent,
        key: String,
        of user: User,
        at now: Date,
        properties: [String: EventValue] = [:],
        in tx: Transaction
    ) async throws {
        try await self.record([.server(event, key: key, of: user, at: now, properties: properties)], in: tx)
    }

    /// Records that the caller looked at `what` today (goals, a board): once a local day each, and a read this
    /// node recorded in the last quarter of an hour writes nothing, so a busy board costs no write per request.
    /// A view makes its person active (`MetricCatalog.activeServerEvents`), so only a person's own request
    /// is one: it takes the request's `Caller`, which only authentication makes. The server's own reads of
    /// the same things (planning goals at midnight, the reminders' triggers, the digest) have none, and
    /// record nothing.
    /// `properties` are made only when the view is written (a board polled every few seconds asks this each time).
    func recordView(
        _ event: ServerEvent,
        of what: String,
        by caller: Caller,
        at now: Date,
        properties: @autoclosure () -> [String: EventValue] = [:],
        in store: Store
    ) async throws {
        let user = caller.userID
        guard !self.viewed.contains(user, what, at: now) else { return }
        let written = properties()
        try await store.transaction { tx in
            guard let account = try await tx.users.find(user) else { return }
            let day = account.localDate(at: now)
            try await self.record(event, key: "\(what):\(day.iso)", of: account, at: now, properties: written, in: tx)
        }
        self.viewed.insert(user, what, at: now)
    }
}

/// This node's memory of the views recorded lately: (user, what) per quarter of an hour. Every zone's
/// offset is a whole number of quarters, so no quarter straddles a user's midnight: the first view of a
/// local day is always written, and a later write in the same day finds its row (the key is per local day)
/// and adds nothing.
private final class RecentViews: Sendable {
    private struct Seen: Hashable {
        var user: User.ID
        var what: String
    }

    private let state = Mutex<(quarter: Int, seen: Set<Seen>)>((0, []))
    private static let limit = 200_000

    func contains(_ user: User.ID, _ what: String, at now: Date) -> Bool {
        let quarter = Int((now.timeIntervalSince1970 / 900).rounded(.down))
        return self.state.withLock { $0.quarter == quarter && $0.seen.contains(Seen(user: user, what: what)) }
    }

    func insert(_ user: User.ID, _ what: String, at now: Date) {
        let quarter = Int((now.timeIntervalSince1970 / 900).rounded(.down))
        self.state.withLock { state in
            if state.quarter != quarter || state.seen.count >= Self.limit { state = (quarter, []) }
            state.seen.insert(Seen(user: user, what: what))
        }
    }
}
