public import FitCircleCore
public import Foundation
import SQLKit

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
extension FeedQueries {
    private var sql: any SQLDatabase { self.tx.sql }
    private var dialect: Store.Dialect { self.tx.dialect }
    /// Workouts of `viewer` and their friends that `audience` allows, newest first, before `cursor` (the last
    /// row's instant and id); with `activity`, that one workout if the viewer may see it.
    ///
    /// A page walks the viewer's own feed index (`feed_entries`, newest first) and stops once it has `limit`
    /// rows the viewer may see: each row's workout, its author's friendship with the viewer and the workout's
    /// visibility are checked as it is read, so a page costs its rows (and any it passes over), not the
    /// friends' histories.
    public func friendFeed(
        of viewer: User.ID,
        audience: FeedAudience,
        workoutType: WorkoutType?,
        before cursor: (Date, ActivityEvent.ID)?,
        only activity: ActivityEvent.ID? = nil,
        limit: Int
    ) async throws -> [FeedActivity] {
        guard limit > 0 else { return [] }
        let me = viewer.rawValue
        let type = workoutType.map { SQLQueryString("AND e.workout_type = \(bind: $0.rawValue)") } ?? ""
        let one = activity.map { SQLQueryString("AND e.activity_id = \(bind: $0.rawValue)") } ?? ""
        let before =
            cursor.map {
                SQLQueryString(
                    "AND \(self.tx.keyset("e.occurred_at", "e.activity_id", after: InstantKey(at: $0.0, id: $0.1.rawValue), descending: true))"
                )
            } ?? ""
        // Each row's reactions come with it as one text (reaction, count and whether the viewer left it, the
        // fields split by the ASCII unit separator and the reactions by the record separator), so a page is one
        // statement — one round trip to PostgreSQL, not two.
        let postgres = self.dialect == .postgres
        let (unit, record) = postgres ? ("chr(31)", "chr(30)") : ("char(31)", "char(30)")
        let concatenate = postgres ? "string_agg(x, \(record))" : "group_concat(x, \(record))"
        let reactions: SQLQueryString = """
            (SELECT \(unsafeRaw: concatenate) FROM (
                SELECT r.reaction || \(unsafeRaw: unit) || COUNT(*) || \(unsafeRaw: unit) || MAX(CASE WHEN r.user_id = \(bind: me) THEN 1 ELSE 0 END) AS x
                FROM activity_reactions r WHERE r.activity_id = a.id GROUP BY r.reaction
            ) AS counted) AS reactions_text
            """
        let rows = try await self.sql.raw(
            """
            SELECT a.*, u.display_name AS author_name, u.photo_key AS author_photo_key, u.visibility_photo AS author_photo_audience,
                \(reactions)
            FROM feed_entries e
            JOIN activity_events a ON a.id = e.activity_id
            JOIN users u ON u.id = e.author_id
            WHERE e.reader_id = \(bind: me) \(type) \(before) \(one) AND a.deleted_at IS NULL
                AND ((e.author_id = \(bind: me) \(Transaction.visibility(audience.own, column: "a.visibility")))
                    OR (e.author_id <> \(bind: me) \(Transaction.visibility(audience.friends, column: "a.visibility"))
                        AND EXISTS (SELECT 1 FROM friendships f WHERE f.user_id = \(bind: me) AND f.friend_id = e.author_id)))
            ORDER BY e.occurred_at DESC, e.activity_id DESC LIMIT \(unsafeRaw: String(limit))
            """
        ).all()
        return try rows.map { row in
            let (counts, mine) = Self.reactions(from: try row.decode(column: "reactions_text", as: String?.self))
            return FeedActivity(
                event: try Transaction.activity(from: row).event,
                authorName: try row.decode(column: "author_name", as: String.self),
                authorPhoto: try Transaction.photo(row, key: "author_photo_key", audience: "author_photo_audience"),
                reactions: counts,
                mine: mine
            )
        }
    }

    /// A row's reactions as the page's statement writes them: reaction, count and mine (1 or 0) split by the
    /// unit separator, the reactions by the record separator.
    static func reactions(from text: String?) -> (counts: [String: Int], mine: Set<String>) {
        var counts: [String: Int] = [:]
        var mine: Set<String> = []
        for entry in (text ?? "").split(separator: "\u{1E}") {
            let parts = entry.split(separator: "\u{1F}", omittingEmptySubsequences: false)
            guard parts.count == 3, let count = Int(parts[1]) else { continue }
            counts[String(parts[0])] = count
            if parts[2] == "1" { mine.insert(String(parts[0])) }
        }
        return (counts, mine)
    }

    /// Each activity's reaction counts, and which the viewer left.
    public func reactions(
        to activities: [ActivityEvent.ID],
        seenBy viewer: User.ID
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
    public func addReaction(_ reaction: String, to activity: ActivityEvent.ID, by user: User.ID, at now: Date)
        async throws -> Bool
    {
        let added =
            !(try await self.sql.raw(
                """
                INSERT INTO activity_reactions (activity_id, user_id, reaction, created_at)
                VALUES (\(bind: activity.rawValue), \(bind: user.rawValue), \(bind: reaction), \(bind: now))
                ON CONFLICT (activity_id, user_id, reaction) DO NOTHING RETURNING activity_id
                """
            ).all()).isEmpty
        if added { try await self.tx.changed(.activity(activity)) }
        return added
    }

    /// Takes `user`'s `reaction` back; false when there was none.
    public func removeReaction(_ reaction: String, from activity: ActivityEvent.ID, by user: User.ID) async throws
        -> Bool
    {
        let removed =
            !(try await self.sql.raw(
                """
                DELETE FROM activity_reactions
                WHERE activity_id = \(bind: activity.rawValue) AND user_id = \(bind: user.rawValue) AND reaction = \(bind: reaction)
                RETURNING activity_id
                """
            ).all()).isEmpty
        if removed { try await self.tx.changed(.activity(activity)) }
        return removed
    }

    /// An activity by id whoever owns it, deleted or not (the engine decides who may see it).
    public func activity(_ id: ActivityEvent.ID) async throws -> StoredActivity? {
        try await self.sql.raw("SELECT * FROM activity_events WHERE id = \(bind: id.rawValue)").first().map(
            Transaction.activity(from:)
        )
    }

    /// Sets who else sees the user's activity.
    public func setVisibility(
        _ visibility: ActivityVisibility,
        of activity: ActivityEvent.ID,
        owner: User.ID,
        at now: Date
    ) async throws {
        try await self.sql.raw(
            """
            UPDATE activity_events SET visibility = \(bind: visibility.rawValue), changed_at = \(bind: now)
            WHERE id = \(bind: activity.rawValue) AND user_id = \(bind: owner.rawValue)
            """
        ).run()
        try await self.feedsChanged(by: activity)
    }
}
