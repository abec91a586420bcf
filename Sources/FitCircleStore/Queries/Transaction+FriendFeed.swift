public import FitCircleCore
public import Foundation
import SQLKit

/// A workout in the friends' feed, with its author and its reactions as the viewer sees them.
public struct FeedActivity: Equatable, Sendable {
    public var event: ActivityEvent
    public var authorName: String
    public var authorPhoto: PersonPhoto?
    /// How many people left each reaction.
    public var reactions: [String: Int]
    /// The reactions the viewer left.
    public var mine: Set<String>
}

/// What a viewer may see of whom in the feed: the visibilities the access policy allows, for their own
/// activities and for their friends'.
public struct FeedAudience: Equatable, Sendable {
    public var own: Set<ActivityVisibility>
    public var friends: Set<ActivityVisibility>

    public init(own: Set<ActivityVisibility>, friends: Set<ActivityVisibility>) {
        self.own = own
        self.friends = friends
    }
}

/// The friends' feed (spec 004, R7) and reactions to activities.
extension Transaction {
    /// Workouts of `viewer` and their friends that `audience` allows, newest first, before `cursor` (the last
    /// row's instant and id).
    ///
    /// A page is found in two steps, so that it reads a few rows per friend, not every friend's history.
    /// First each author's newest row (one probe of the feed index per author); the `limit`-th newest of
    /// those is a floor that at least `limit` rows reach, so the page lies at or above it. Then only the
    /// authors whose newest row reaches the floor give their rows above it. 500 friends: ~500 index probes
    /// and a few dozen rows, where reading each author's newest page would read 10,000.
    public func friendFeed(
        of viewer: User.ID, audience: FeedAudience, workoutType: WorkoutType?, before cursor: (Date, ActivityEvent.ID)?, limit: Int
    ) async throws -> [FeedActivity] {
        let type = workoutType.map { SQLQueryString("AND b.workout_type = \(bind: $0.rawValue)") } ?? ""
        let before = cursor.map { SQLQueryString("AND (b.occurred_at < \(bind: $0.0) OR (b.occurred_at = \(bind: $0.0) AND b.id < \(bind: $0.1.rawValue)))") } ?? ""
        let visible: SQLQueryString = """
            AND ((t.is_self = 1 \(Self.visibility(audience.own, column: "b.visibility")))
                OR (t.is_self = 0 \(Self.visibility(audience.friends, column: "b.visibility"))))
            """
        let me = viewer.rawValue
        let authors: SQLQueryString = """
            WITH authors (author_id, is_self) AS (
                SELECT CAST(\(bind: me) AS TEXT), 1
                UNION ALL SELECT friend_id, 0 FROM friendships WHERE user_id = \(bind: me)
            )
            """
        func newest(_ columns: String, from floor: Date?, count: Int) -> SQLQueryString {
            let above = floor.map { SQLQueryString("AND b.occurred_at >= \(bind: $0)") } ?? ""
            return """
                SELECT \(unsafeRaw: columns) FROM activity_events b
                WHERE b.user_id = t.author_id AND b.kind = 'workout' AND b.deleted_at IS NULL \(visible) \(type) \(before) \(above)
                ORDER BY b.occurred_at DESC, b.id DESC LIMIT \(unsafeRaw: String(count))
                """
        }
        var heads: [(author: String, at: Date)] = []
        for row in try await self.sql.raw(
            "\(authors) SELECT t.author_id, (\(newest("b.occurred_at", from: nil, count: 1))) AS head FROM authors t"
        ).all() {
            if let head = try row.decode(column: "head", as: Date?.self) { heads.append((try row.decode(column: "author_id", as: String.self), head)) }
        }
        guard !heads.isEmpty, limit > 0 else { return [] }
        heads.sort { $0.at > $1.at }
        // A millisecond below, so that an instant's trip through the driver cannot lose the floor's own row.
        let floor = heads.count >= limit ? heads[limit - 1].at.addingTimeInterval(-0.001) : nil
        let reaching = heads.filter { head in floor.map { head.at >= $0 } ?? true }.map { SQLBind($0.author) }
        let postgres = self.dialect == .postgres
        // Each author's rows: a LATERAL join on PostgreSQL (which would otherwise test every row of the table
        // against each author's subquery), a correlated IN on SQLite, which has no LATERAL and walks the
        // subquery per author by itself.
        let perAuthor: SQLQueryString =
            postgres ? "CROSS JOIN LATERAL (\(newest("b.*", from: floor, count: limit))) a" : "JOIN activity_events a ON a.id IN (\(newest("b.id", from: floor, count: limit)))"
        let rows = try await self.sql.raw(
            """
            \(authors)
            SELECT a.*, u.display_name AS author_name, u.photo_key AS author_photo_key, u.visibility_photo AS author_photo_audience
            FROM authors t JOIN users u ON u.id = t.author_id
            \(perAuthor)
            WHERE t.author_id IN (\(SQLList(reaching)))
            ORDER BY a.occurred_at DESC, a.id DESC LIMIT \(unsafeRaw: String(limit))
            """
        ).all()
        var items = try rows.map { row in
            FeedActivity(
                event: try Self.activity(from: row).event, authorName: try row.decode(column: "author_name", as: String.self),
                authorPhoto: try Self.photo(row, key: "author_photo_key", audience: "author_photo_audience"), reactions: [:], mine: [])
        }
        let counts = try await self.reactions(to: items.map(\.event.id), seenBy: viewer)
        for index in items.indices {
            items[index].reactions = counts[items[index].event.id]?.counts ?? [:]
            items[index].mine = counts[items[index].event.id]?.mine ?? []
        }
        return items
    }

    /// Each activity's reaction counts, and which the viewer left.
    public func reactions(
        to activities: [ActivityEvent.ID], seenBy viewer: User.ID
    ) async throws -> [ActivityEvent.ID: (counts: [String: Int], mine: Set<String>)] {
        guard !activities.isEmpty else { return [:] }
        var found: [ActivityEvent.ID: (counts: [String: Int], mine: Set<String>)] = [:]
        for row in try await self.sql.raw(
            """
            SELECT activity_id, reaction, COUNT(*) AS n, MAX(CASE WHEN user_id = \(bind: viewer.rawValue) THEN 1 ELSE 0 END) AS mine
            FROM activity_reactions WHERE activity_id IN (\(SQLList(activities.map { SQLBind($0.rawValue) })))
            GROUP BY activity_id, reaction
            """
        ).all() {
            let id = ActivityEvent.ID(try row.decode(column: "activity_id", as: String.self))
            let reaction = try row.decode(column: "reaction", as: String.self)
            found[id, default: ([:], [])].counts[reaction] = try row.decode(column: "n", as: Int.self)
            if try row.decode(column: "mine", as: Int.self) == 1 { found[id, default: ([:], [])].mine.insert(reaction) }
        }
        return found
    }

    /// Records `user`'s `reaction`; false when they had left it already.
    public func addReaction(_ reaction: String, to activity: ActivityEvent.ID, by user: User.ID, at now: Date) async throws -> Bool {
        !(try await self.sql.raw(
            """
            INSERT INTO activity_reactions (activity_id, user_id, reaction, created_at)
            VALUES (\(bind: activity.rawValue), \(bind: user.rawValue), \(bind: reaction), \(bind: now))
            ON CONFLICT (activity_id, user_id, reaction) DO NOTHING RETURNING activity_id
            """
        ).all()).isEmpty
    }

    /// Takes `user`'s `reaction` back; false when there was none.
    public func removeReaction(_ reaction: String, from activity: ActivityEvent.ID, by user: User.ID) async throws -> Bool {
        !(try await self.sql.raw(
            """
            DELETE FROM activity_reactions
            WHERE activity_id = \(bind: activity.rawValue) AND user_id = \(bind: user.rawValue) AND reaction = \(bind: reaction)
            RETURNING activity_id
            """
        ).all()).isEmpty
    }

    /// An activity by id whoever owns it, deleted or not (the engine decides who may see it).
    public func activity(_ id: ActivityEvent.ID) async throws -> StoredActivity? {
        try await self.sql.raw("SELECT * FROM activity_events WHERE id = \(bind: id.rawValue)").first().map(Self.activity(from:))
    }

    /// Sets who else sees the user's activity.
    public func setVisibility(_ visibility: ActivityVisibility, of activity: ActivityEvent.ID, owner: User.ID) async throws {
        try await self.sql.raw(
            "UPDATE activity_events SET visibility = \(bind: visibility.rawValue) WHERE id = \(bind: activity.rawValue) AND user_id = \(bind: owner.rawValue)"
        ).run()
    }
}
