public import FitCircleCore
public import FitCircleJobs
public import FitCircleStore
import Foundation

/// A member's news for their circles' feeds (a badge, a streak milestone), raised where it happens (the
/// rewards and streaks of an ingest) as a job queued in that transaction: it posts the item to every circle
/// the member is in when it runs, and the circles' streams hear of it.
extension Circles: JobOwner {
    public static let postNews = "circles.post_news"

    struct News: Codable, Equatable, Sendable {
        var user: User.ID
        var kind: FeedItem.Kind
        /// The badge's name, or the streak's days.
        var subject: String
        /// Unique per member and news: the same milestone or badge is told once.
        var key: String
    }

    /// The job that posts the news when the caller's transaction commits.
    static func posting(_ news: News, ids: IDGenerator, at now: Date) throws -> JobRecord {
        JobRecord(
            id: ids.make(JobRecord.self).rawValue,
            kind: Self.postNews,
            payload: String(decoding: try JSONEncoder().encode(news), as: UTF8.self),
            dedupeKey: "news:\(news.user):\(news.key)",
            runAt: now,
            maxAttempts: 8
        )
    }

    public func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        try jobs.register(Self.postNews) { job in
            try await self.post(try JSONDecoder().decode(News.self, from: Data(job.payload.utf8)))
        }
    }

    private func post(_ news: News) async throws {
        let now = self.clock.now()
        let events = try await self.store.transaction { tx in
            guard let member = try await tx.users.find(news.user) else { return [BoardEvent]() }
            let name = member.profile.displayName
            let text =
                news.kind == .badge
                ? FeedText.badge(name: name, badge: news.subject)
                : FeedText.streakMilestone(name: name, days: Int(news.subject) ?? 0)
            let data = ["name": name, news.kind == .badge ? "badge" : "days": news.subject]
            var events: [BoardEvent] = []
            for (circle, _) in try await tx.circles.list(of: news.user) where !circle.isArchived {
                let item = FeedItem(
                    id: self.ids.make(),
                    circleID: circle.id,
                    kind: news.kind,
                    actorID: news.user,
                    text: text,
                    data: data,
                    createdAt: now
                )
                if try await tx.feed.insert(item, dedupeKey: news.key) {
                    events.append(self.events.event(circle.id, changes: [], ranks: [], feed: [item]))
                }
            }
            try await self.events.send(events, in: tx)
            return events
        }
        self.events.publish(events)
    }
}
