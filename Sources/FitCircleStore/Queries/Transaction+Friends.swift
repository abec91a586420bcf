public import FitCircleCore
public import Foundation
import SQLKit

/// Friend edges: requests (directed, until answered), friendships (mutual, a row each way) and blocks
/// (directed). Whether a change is allowed is the engine's question (`FriendAccess`); these only record it.
extension Transaction {
    /// The queries of friend edges: requests, friendships and blocks (`friend_requests`, `friendships`, `blocks`).
    public var friends: FriendQueries { FriendQueries(tx: self) }
}

public struct FriendQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// How `other` stands to `viewer`.
    public func edge(from viewer: User.ID, to other: User.ID) async throws -> FriendEdge {
        guard
            let row = try await self.sql.raw(
                "SELECT \(Transaction.edgeColumns(viewer)) FROM users u WHERE u.id = \(bind: other.rawValue)"
            ).first()
        else { return .strangers }
        return try Transaction.friendEdge(from: row)
    }

    /// Those who blocked `viewer`: to them, the viewer must not see these people (a block acts everywhere).
    public func blockers(of viewer: User.ID) async throws -> Set<User.ID> {
        Set(
            try await self.sql.raw("SELECT blocker_id FROM user_blocks WHERE blocked_id = \(bind: viewer.rawValue)")
                .all()
                .map { User.ID(try $0.decode(column: "blocker_id", as: String.self)) }
        )
    }

    /// Whether either of the two blocked the other.
    public func areBlocked(_ one: User.ID, _ other: User.ID) async throws -> Bool {
        try await self.sql.raw(
            """
            SELECT 1 AS b FROM user_blocks WHERE (blocker_id = \(bind: one.rawValue) AND blocked_id = \(bind: other.rawValue))
                OR (blocker_id = \(bind: other.rawValue) AND blocked_id = \(bind: one.rawValue)) LIMIT 1
            """
        ).first() != nil
    }

    /// Whether `blocker` blocked `user`.
    public func hasBlocked(_ blocker: User.ID, _ user: User.ID) async throws -> Bool {
        try await self.sql.raw(
            "SELECT 1 AS b FROM user_blocks WHERE blocker_id = \(bind: blocker.rawValue) AND blocked_id = \(bind: user.rawValue)"
        ).first() != nil
    }

    public func insertRequest(from user: User.ID, to other: User.ID, at now: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO friend_requests (from_user, to_user, created_at) VALUES (\(bind: user.rawValue), \(bind: other.rawValue), \(bind: now))
            ON CONFLICT (from_user, to_user) DO NOTHING
            """
        ).run()
    }

    /// Deletes the request from `user` to `other`; whether there was one.
    public func deleteRequest(from user: User.ID, to other: User.ID) async throws -> Bool {
        !(try await self.sql.raw(
            "DELETE FROM friend_requests WHERE from_user = \(bind: user.rawValue) AND to_user = \(bind: other.rawValue) RETURNING from_user"
        ).all()).isEmpty
    }

    /// Makes the two friends, and forgets the requests between them either way.
    public func befriend(_ user: User.ID, _ other: User.ID, at now: Date) async throws {
        for (one, two) in [(user, other), (other, user)] {
            _ = try await self.deleteRequest(from: one, to: two)
            try await self.sql.raw(
                """
                INSERT INTO friendships (user_id, friend_id, since) VALUES (\(bind: one.rawValue), \(bind: two.rawValue), \(bind: now))
                ON CONFLICT (user_id, friend_id) DO NOTHING
                """
            ).run()
        }
        try await self.tx.feed.indexFeeds(between: user, other)
        // Not held in any node's memory, but what a viewer may see moves the cache's generation on: pages kept
        // for their viewers are versioned by it (`Store.cacheGeneration`).
        try await self.tx.changed(.user(user), .user(other))
    }

    /// Ends the friendship; whether there was one.
    public func unfriend(_ user: User.ID, _ other: User.ID) async throws -> Bool {
        let ended =
            !(try await self.sql.raw(
                """
                DELETE FROM friendships WHERE (user_id = \(bind: user.rawValue) AND friend_id = \(bind: other.rawValue))
                    OR (user_id = \(bind: other.rawValue) AND friend_id = \(bind: user.rawValue))
                RETURNING user_id
                """
            ).all()).isEmpty
        if ended {
            try await self.tx.feed.unindexFeeds(between: user, other)
            try await self.tx.changed(.user(user), .user(other))
        }
        return ended
    }

    /// `user` blocks `other`: besides the block, the friendship and the requests between them end.
    public func block(_ other: User.ID, by user: User.ID, at now: Date) async throws {
        _ = try await self.unfriend(user, other)
        _ = try await self.deleteRequest(from: user, to: other)
        _ = try await self.deleteRequest(from: other, to: user)
        try await self.sql.raw(
            """
            INSERT INTO user_blocks (blocker_id, blocked_id, created_at) VALUES (\(bind: user.rawValue), \(bind: other.rawValue), \(bind: now))
            ON CONFLICT (blocker_id, blocked_id) DO NOTHING
            """
        ).run()
        // What the blocked person is shown (their blockers, cached on every node) changes.
        try await self.tx.changed(.user(other))
    }

    /// Lifts the block; whether there was one.
    public func unblock(_ other: User.ID, by user: User.ID) async throws -> Bool {
        let lifted =
            !(try await self.sql.raw(
                "DELETE FROM user_blocks WHERE blocker_id = \(bind: user.rawValue) AND blocked_id = \(bind: other.rawValue) RETURNING blocker_id"
            ).all()).isEmpty
        if lifted { try await self.tx.changed(.user(other)) }
        return lifted
    }

    /// The user's friends' ids (at most `FriendLimits.maximumFriends`).
    public func ids(of user: User.ID) async throws -> Set<User.ID> {
        Set(
            try await self.sql.raw("SELECT friend_id FROM friendships WHERE user_id = \(bind: user.rawValue)").all().map
            { row in
                User.ID(try row.decode(column: "friend_id", as: String.self))
            }
        )
    }

    public func count(of user: User.ID) async throws -> Int {
        try await self.countRows("SELECT COUNT(*) AS n FROM friendships WHERE user_id = \(bind: user.rawValue)")
    }

    public func outgoingRequestCount(of user: User.ID) async throws -> Int {
        try await self.countRows("SELECT COUNT(*) AS n FROM friend_requests WHERE from_user = \(bind: user.rawValue)")
    }

    /// The user's friends by name, each with their workouts since `recentSince` (the ledger's, not deleted)
    /// of the visibilities the access policy lets a friend see.
    public func list(
        of user: User.ID,
        recentSince: Date,
        visible: Set<ActivityVisibility>,
        after last: User.ID?,
        limit: Int
    ) async throws -> [FriendRow] {
        let shown = Transaction.visibility(visible, column: "a.visibility")
        // After the friend `last` in the order of names (a rename between pages may move someone across).
        let after =
            last.map {
                "AND (u.display_name, u.id) > (SELECT l.display_name, l.id FROM users l WHERE l.id = \(bind: $0.rawValue))"
                    as SQLQueryString
            } ?? ""
        return try await self.sql.raw(
            """
            SELECT u.id, u.display_name, u.photo_key, u.visibility_photo, f.since, COALESCE(w.n, 0) AS workouts, COALESCE(w.distance, 0.0) AS distance,
                COALESCE(w.duration, 0.0) AS duration,
                (SELECT MAX(a.occurred_at) FROM activity_events a WHERE a.user_id = u.id AND a.kind = 'workout'
                    AND a.deleted_at IS NULL \(shown)) AS last_workout
            FROM friendships f JOIN users u ON u.id = f.friend_id
            LEFT JOIN (
                SELECT a.user_id, COUNT(*) AS n, SUM(a.distance_meters) AS distance, SUM(a.duration_seconds) AS duration
                FROM friendships g JOIN activity_events a ON a.user_id = g.friend_id
                WHERE g.user_id = \(bind: user.rawValue) AND a.kind = 'workout' AND a.occurred_at >= \(bind: recentSince)
                    AND a.deleted_at IS NULL \(shown)
                GROUP BY a.user_id
            ) w ON w.user_id = u.id
            WHERE f.user_id = \(bind: user.rawValue) \(after)
            ORDER BY u.display_name, u.id LIMIT \(bind: limit)
            """
        ).all().map { row in
            FriendRow(
                userID: User.ID(try row.decode(column: "id", as: String.self)),
                displayName: try row.decode(column: "display_name", as: String.self),
                photo: try Transaction.photo(row),
                since: try row.decode(column: "since", as: Date.self),
                recentWorkouts: try row.decode(column: "workouts", as: Int.self),
                recentDistanceMeters: try row.decode(column: "distance", as: Double.self),
                recentDurationSeconds: try row.decode(column: "duration", as: Double.self),
                lastWorkoutAt: try row.decode(column: "last_workout", as: Date?.self)
            )
        }
    }

    /// Requests waiting for the user's answer (`incoming`) or for others' (`outgoing`), newest first, a page
    /// at a time: after `last`, the page before's last (when it was asked and by whom or of whom).
    public func requests(
        of user: User.ID,
        incoming: Bool,
        after last: InstantKey?,
        limit: Int
    ) async throws -> [PersonSince] {
        let (mine, theirs) = incoming ? ("to_user", "from_user") : ("from_user", "to_user")
        let after: SQLQueryString =
            last.map { "AND \(self.tx.keyset("r.created_at", "u.id", after: $0, descending: true))" } ?? ""
        return try await self.sql.raw(
            """
            SELECT u.id, u.display_name, u.photo_key, u.visibility_photo, r.created_at AS since, \(Self.sharesCircleColumn(user))
            FROM friend_requests r JOIN users u ON u.id = r.\(unsafeRaw: theirs)
            WHERE r.\(unsafeRaw: mine) = \(bind: user.rawValue) \(after)
            ORDER BY r.created_at DESC, u.id DESC LIMIT \(bind: limit)
            """
        ).all().map(Self.personSince(from:))
    }

    /// The people the user blocked, the latest first, a page at a time (after `last`, as `requests`).
    public func blockedPeople(of user: User.ID, after last: InstantKey?, limit: Int) async throws -> [PersonSince] {
        let after: SQLQueryString =
            last.map { "AND \(self.tx.keyset("b.created_at", "u.id", after: $0, descending: true))" } ?? ""
        return try await self.sql.raw(
            """
            SELECT u.id, u.display_name, u.photo_key, u.visibility_photo, b.created_at AS since, \(Self.sharesCircleColumn(user))
            FROM user_blocks b JOIN users u ON u.id = b.blocked_id
            WHERE b.blocker_id = \(bind: user.rawValue) \(after)
            ORDER BY b.created_at DESC, u.id DESC LIMIT \(bind: limit)
            """
        ).all().map(Self.personSince(from:))
    }

    private static func personSince(from row: any SQLRow) throws -> PersonSince {
        PersonSince(
            userID: User.ID(try row.decode(column: "id", as: String.self)),
            displayName: try row.decode(column: "display_name", as: String.self),
            photo: try Transaction.photo(row),
            since: try row.decode(column: "since", as: Date.self),
            sharesCircle: try row.decode(column: "shares_circle", as: Bool.self)
        )
    }

    /// Whether `u` and `viewer` are members of one circle now.
    static func sharesCircleColumn(_ viewer: User.ID) -> SQLQueryString {
        """
        EXISTS (SELECT 1 FROM circle_members a JOIN circle_members b ON b.circle_id = a.circle_id
            WHERE a.user_id = \(bind: viewer.rawValue) AND a.left_at IS NULL AND b.user_id = u.id AND b.left_at IS NULL) AS shares_circle
        """
    }

    private func countRows(_ query: SQLQueryString) async throws -> Int {
        try await self.sql.raw(query).first()?.decode(column: "n", as: Int.self) ?? 0
    }
}
