public import FitCircleCore
import FitCircleStore
import Foundation

extension Friends {
    /// How often an open feed stream looks for new workouts. Looking, rather than being woken, reaches
    /// across server processes with no message per workout on the ingest path, and stays well inside the
    /// 30 seconds in which a friend's workout must appear (spec 004, R7.2); an open stream costs one feed
    /// read this often.
    static let feedPoll: Duration = .seconds(5)

    /// The caller's feed as it grows, for `duration`: each workout newer than the newest there when the
    /// stream opened, oldest first, as `feed` would show it. A workout recorded late with an earlier time
    /// takes its place in the feed but is not announced.
    /// The feed's newest is read before this returns: whatever is recorded once the stream is open is told.
    /// A stream that resumes a broken one (`after`: the last workout it told, its `Last-Event-ID`) starts after
    /// that workout instead, if it is among the feed's newest `resumeDepth` entries.
    public func feedUpdates(
        of user: User.ID,
        type: WorkoutType?,
        after lastTold: ActivityEvent.ID? = nil,
        for duration: Duration
    ) async throws -> AsyncThrowingStream<FeedEntry, any Error> {
        let newestWhenOpened = try await self.feed(of: user, type: type, before: nil, limit: 1).first.map {
            Self.position(of: $0)
        }
        var resumed: (Date, ActivityEvent.ID)?
        if let lastTold { resumed = try await self.position(of: lastTold, inFeedOf: user, type: type) }
        let opened = resumed ?? newestWhenOpened
        return AsyncThrowingStream { continuation in
            let task = Task {
                // Real time, not the injected clock: how long the connection stays open.
                let deadline = ContinuousClock.now + duration
                var newest = opened
                do {
                    while !Task.isCancelled {
                        let left = deadline - ContinuousClock.now
                        guard left > .zero else { break }
                        try await Task.sleep(for: min(left, Self.feedPoll))
                        let arrived = try await self.entries(of: user, type: type, newerThan: newest)
                        for entry in arrived { continuation.yield(entry) }
                        if let last = arrived.last { newest = Self.position(of: last) }
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// How far back in the feed a resumed stream looks for the last workout it told.
    static let resumeDepth = 100

    /// The feed position of the entry `id`, if it is among the newest `resumeDepth` of the caller's feed (the
    /// feed, not the event: the stream never learns more of an event than the feed shows).
    private func position(of id: ActivityEvent.ID, inFeedOf user: User.ID, type: WorkoutType?) async throws -> (
        Date, ActivityEvent.ID
    )? {
        var before: (Date, ActivityEvent.ID)?
        for _ in 0..<(Self.resumeDepth / 20) {
            let page = try await self.feed(of: user, type: type, before: before, limit: 20)
            if let entry = page.first(where: { $0.activity.event.id == id }) { return Self.position(of: entry) }
            guard page.count == 20, let last = page.last else { return nil }
            before = Self.position(of: last)
        }
        return nil
    }

    /// The feed's entries after `position`, oldest first: pages back from the newest until one reaches it.
    private func entries(of user: User.ID, type: WorkoutType?, newerThan position: (Date, ActivityEvent.ID)?)
        async throws -> [FeedEntry]
    {
        var newer: [FeedEntry] = []
        var before: (Date, ActivityEvent.ID)?
        while true {
            let page = try await self.feed(of: user, type: type, before: before, limit: 20)
            let fresh = page.filter { entry in position.map { Self.isNewer(Self.position(of: entry), than: $0) } ?? true
            }
            newer += fresh
            guard fresh.count == page.count, page.count == 20, let last = page.last, position != nil else { break }
            before = Self.position(of: last)
        }
        return newer.reversed()
    }

    private static func position(of entry: FeedEntry) -> (Date, ActivityEvent.ID) {
        (entry.activity.event.occurredAt, entry.activity.event.id)
    }

    /// The feed's order: newer, then the greater id at the same instant.
    private static func isNewer(_ one: (Date, ActivityEvent.ID), than other: (Date, ActivityEvent.ID)) -> Bool {
        one.0 > other.0 || (one.0 == other.0 && one.1.rawValue > other.1.rawValue)
    }
}
