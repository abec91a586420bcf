public import FitCircleCore
public import Foundation
import SQLKit

/// The friends' feed as an index per reader (`feed_entries`): a row for each workout and each person whose
/// feed it may enter — its author, and the author's friends. A page then reads the reader's newest rows in
/// index order and stops at the page, whatever the friends' histories hold. A row is an index, never a copy:
/// the workout's visibility, the friendship and the deletion are checked when the page is read
/// (`friendFeed`). The rows are kept by the writes that change who may read what: a workout recorded
/// (its author's row at once, its friends' by the job that follows, `fanOutToFriends`), edited
/// (`replaceActivity`), two people becoming friends or no longer being (`befriend`, `unfriend`). Each notes
/// the feeds it changed (`CacheTag.feed`), so that pages kept for their readers go (`Store.feedPageMark`).
extension FeedQueries {
    private var sql: any SQLDatabase { self.tx.sql }
    /// The authors' own rows for the workouts among `events` just stored.
    func indexOwnWorkouts(_ events: [ActivityEvent], stored: Set<ActivityEvent.ID>) async throws {
        let workouts = events.filter { $0.kind == .workout && stored.contains($0.id) }
        for start in stride(from: 0, to: workouts.count, by: 250) {
            let rows = workouts[start..<min(start + 250, workouts.count)].map { event -> SQLQueryString in
                let type = Self.workoutType(of: event)
                return
                    "(\(bind: event.userID.rawValue), \(bind: event.id.rawValue), \(bind: event.userID.rawValue), \(bind: event.occurredAt), \(bind: type))"
            }
            try await self.sql.raw(
                """
                INSERT INTO feed_entries (reader_id, activity_id, author_id, occurred_at, workout_type) VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (reader_id, activity_id) DO NOTHING
                """
            ).run()
        }
        try await self.tx.changed(Set(workouts.map(\.userID)).map(CacheTag.feed))
    }

    /// The rows of the author's friends for a workout (at most `FriendLimits.maximumFriends`); answers how
    /// many were written. Run again, it writes nothing twice.
    public func fanOutToFriends(_ activity: ActivityEvent.ID) async throws -> Int {
        let readers = try await self.sql.raw(
            """
            INSERT INTO feed_entries (reader_id, activity_id, author_id, occurred_at, workout_type)
            SELECT f.user_id, a.id, a.user_id, a.occurred_at, a.workout_type
            FROM activity_events a JOIN friendships f ON f.friend_id = a.user_id
            WHERE a.id = \(bind: activity.rawValue) AND a.kind = 'workout'
            ON CONFLICT (reader_id, activity_id) DO NOTHING
            RETURNING reader_id
            """
        ).all()
        try await self.tx.changed(
            try readers.map { .feed(User.ID(try $0.decode(column: "reader_id", as: String.self))) }
        )
        return readers.count
    }

    /// Two new friends: each one's workouts enter the other's feed.
    func indexFeeds(between user: User.ID, _ other: User.ID) async throws {
        for (reader, author) in [(user, other), (other, user)] {
            try await self.sql.raw(
                """
                INSERT INTO feed_entries (reader_id, activity_id, author_id, occurred_at, workout_type)
                SELECT \(bind: reader.rawValue), id, user_id, occurred_at, workout_type FROM activity_events
                WHERE user_id = \(bind: author.rawValue) AND kind = 'workout'
                ON CONFLICT (reader_id, activity_id) DO NOTHING
                """
            ).run()
        }
        try await self.tx.changed(.feed(user), .feed(other))
    }

    /// Friends no more: each one's workouts leave the other's feed.
    func unindexFeeds(between user: User.ID, _ other: User.ID) async throws {
        try await self.sql.raw(
            """
            DELETE FROM feed_entries WHERE (author_id = \(bind: user.rawValue) AND reader_id = \(bind: other.rawValue))
                OR (author_id = \(bind: other.rawValue) AND reader_id = \(bind: user.rawValue))
            """
        ).run()
        try await self.tx.changed(.feed(user), .feed(other))
    }

    /// An edited workout keeps its place in every feed by its (new) instant and type.
    func reindexFeeds(of event: ActivityEvent) async throws {
        guard event.kind == .workout else { return }
        let readers = try await self.sql.raw(
            """
            UPDATE feed_entries SET occurred_at = \(bind: event.occurredAt), workout_type = \(bind: Self.workoutType(of: event))
            WHERE activity_id = \(bind: event.id.rawValue)
            RETURNING reader_id
            """
        ).all()
        try await self.tx.changed(
            try readers.map { .feed(User.ID(try $0.decode(column: "reader_id", as: String.self))) }
        )
    }

    /// The workout's visibility changed: it may enter or leave the feeds that index it.
    func feedsChanged(by activity: ActivityEvent.ID) async throws {
        let readers = try await self.sql.raw(
            "SELECT reader_id FROM feed_entries WHERE activity_id = \(bind: activity.rawValue)"
        ).all()
        try await self.tx.changed(
            try readers.map { .feed(User.ID(try $0.decode(column: "reader_id", as: String.self))) }
        )
    }

    private static func workoutType(of event: ActivityEvent) -> String? {
        guard case .workout(let workout) = event.payload else { return nil }
        return workout.type.rawValue
    }
}
