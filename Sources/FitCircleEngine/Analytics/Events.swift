public import FitCircleCore
public import FitCircleStore
import Foundation

/// The apps' analytics events (`POST /api/events`, issue 24): a batch checked against the profile's
/// schemas, all or nothing, each event kept once per client event id and dated in the user's zone.
public struct Events: Sendable {
    let store: Store
    let profile: RuleProfile
    let recorder: EventRecorder
    let clock: WallClock

    public init(store: Store, profile: RuleProfile, recorder: EventRecorder, clock: WallClock) {
        self.store = store
        self.profile = profile
        self.recorder = recorder
        self.clock = clock
    }

    public struct Recorded: Equatable, Sendable {
        /// Events new to the server.
        public var accepted: Int
        /// Events it had already (the same client event id sent again).
        public var duplicates: Int
    }

    public func record(_ batch: [EventInput], for user: User.ID) async throws -> Recorded {
        let now = self.clock.now()
        try EventInput.validate(batch, schemas: self.profile.eventSchemas, now: now)
        return try await self.store.transaction { tx in
            // Under the user's lock, so that concurrent batches cannot each slip under the quota.
            guard let account = try await tx.users.locked(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            let sent = try await tx.events.appEventCount(of: user, receivedSince: now.addingTimeInterval(-86_400))
            guard sent + batch.count <= EventInput.dailyQuota else {
                throw DomainError.rateLimited(
                    retryAfter: 3_600,
                    reason:
                        "At most \(EventInput.dailyQuota) app events in 24 hours; \(sent) have arrived. Nothing was recorded."
                )
            }
            let events = batch.map { input in
                AnalyticsEvent(
                    userID: user,
                    key: "app:\(input.clientEventID)",
                    name: input.name,
                    source: .app,
                    occurredAt: input.occurredAt,
                    localDate: account.localDate(at: input.occurredAt),
                    properties: input.properties,
                    receivedAt: now
                )
            }
            let stored = try await self.recorder.record(events, in: tx)
            return Recorded(accepted: stored.count, duplicates: events.count - stored.count)
        }
    }

    /// Deletes app events kept longer than `EventInput.retention` (the nightly purge); answers how many went.
    public func purgeExpired() async throws -> Int {
        let before = self.clock.now().addingTimeInterval(-EventInput.retention)
        return try await Housekeeping.inBatches(on: self.store) { tx, limit in
            try await tx.events.purgeAppEvents(receivedBefore: before, limit: limit)
        }
    }
}
