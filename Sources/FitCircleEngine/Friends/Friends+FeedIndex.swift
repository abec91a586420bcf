public import FitCircleCore
public import FitCircleJobs
import FitCircleStore
import Foundation

/// The friends' feed is read from an index per reader (`feed_entries`, see the store): recording a workout
/// writes its author's row at once and queues one job, which writes a row for each of the author's friends
/// (at most `FriendLimits.maximumFriends`) — so the ingest path does no more than queue, and a page of the
/// feed reads its own rows, not every friend's history.
extension Friends {
    public static let fanOutWorkout = "friends.fan_out_workout"

    /// The job to queue for a workout just recorded (whatever its visibility now: the rows are an index,
    /// and who may see the workout is decided when a feed is read).
    static func fanningOut(_ event: ActivityEvent, ids: IDGenerator, at now: Date) throws -> JobRecord? {
        guard event.kind == .workout else { return nil }
        return JobRecord(
            id: ids.make(JobRecord.self).rawValue,
            kind: Self.fanOutWorkout,
            payload: String(
                decoding: try JSONEncoder().encode(PostedWorkout(author: event.userID, activity: event.id)),
                as: UTF8.self
            ),
            dedupeKey: "fan_out:\(event.id)",
            runAt: now,
            maxAttempts: 8
        )
    }

    func fanOut(_ workout: PostedWorkout) async throws {
        _ = try await self.store.transaction { tx in try await tx.feed.fanOutToFriends(workout.activity) }
    }
}
