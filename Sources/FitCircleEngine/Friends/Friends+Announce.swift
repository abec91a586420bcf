public import FitCircleCore
public import FitCircleJobs
import FitCircleStore
import Foundation

/// A friend's workout, told to the friends who asked for it (`friend_activity`, spec 004: optional, off by
/// default). Recording a workout queues one job in its transaction; the job finds, among the author's
/// friends, those who turned the type on, and raises it for each — so the ingest path does no more than
/// queue, and nobody who did not ask is even considered for a notification.
extension Friends: JobOwner {
    public static let announceWorkout = "friends.announce_workout"

    /// A workout just recorded, as the jobs that follow it carry it (the announcement, the feed's fan-out).
    struct PostedWorkout: Codable {
        var author: User.ID
        var activity: ActivityEvent.ID
    }

    /// The job to queue for a workout just recorded, when the profile has the type and friends may see it.
    static func announcing(_ event: ActivityEvent, catalog: NotificationCatalog, ids: IDGenerator, at now: Date) throws
        -> JobRecord?
    {
        guard event.kind == .workout, catalog[RaisedType.friendActivity] != nil,
            ActivityAccess.mayView(event.visibility, isSelf: false, isFriend: true)
        else { return nil }
        return JobRecord(
            id: ids.make(JobRecord.self).rawValue,
            kind: Self.announceWorkout,
            payload: String(
                decoding: try JSONEncoder().encode(PostedWorkout(author: event.userID, activity: event.id)),
                as: UTF8.self
            ),
            dedupeKey: "announce:\(event.id)",
            runAt: now,
            maxAttempts: 8
        )
    }

    public func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        try jobs.register(Self.announceWorkout) { job in
            try await self.announce(try JSONDecoder().decode(PostedWorkout.self, from: Data(job.payload.utf8)))
        }
        try jobs.register(Self.fanOutWorkout) { job in
            try await self.fanOut(try JSONDecoder().decode(PostedWorkout.self, from: Data(job.payload.utf8)))
        }
    }

    private func announce(_ announcement: PostedWorkout) async throws {
        guard let kind = self.profile.notifications[RaisedType.friendActivity] else { return }
        let now = self.clock.now()
        try await self.store.transaction { tx in
            // Gone, deleted or made private since: nothing to tell.
            guard let author = try await tx.users.find(announcement.author),
                let stored = try await tx.feed.activity(announcement.activity), stored.deletedAt == nil,
                ActivityAccess.mayView(stored.event.visibility, isSelf: false, isFriend: true)
            else { return }
            let friends = try await tx.friends.ids(of: author.id)
            let preferences = try await tx.notifications.preferences(of: friends)
            var jobs: [JobRecord] = []
            for friend in friends.sorted()
            where NotificationChannel.allCases.contains(where: {
                preferences[friend]?.typeSwitch(kind, on: $0) ?? false
            }) {
                let candidate = NotificationCandidate(
                    type: RaisedType.friendActivity,
                    dedupeKey: "friend_activity:\(stored.event.id)",
                    data: [
                        "name": author.profile.displayName, "activity": stored.event.workoutName,
                        "activityId": stored.event.id.rawValue,
                    ],
                    actor: author.id
                )
                if let job = try Notifications.raising(
                    candidate,
                    for: friend,
                    catalog: self.profile.notifications,
                    ids: self.ids,
                    at: now
                ) {
                    jobs.append(job)
                }
            }
            try await tx.enqueue(jobs, at: now)
        }
    }
}
