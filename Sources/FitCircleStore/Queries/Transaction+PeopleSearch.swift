public import FitCircleCore
import SQLKit

/// The people search index (`NameSearch`): each account's name terms, with what a result shows of it (its
/// name and photo, who may see the photo, whether it is disabled), rewritten from its row whenever the row
/// changes, so that a search reads nothing else.
extension Transaction {
    /// The queries of people search.
    public var search: SearchQueries { SearchQueries(tx: self) }
}

public struct SearchQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// Replaces the index entries of `user` with those of `displayName`, copying what a result shows from the
    /// account's row as it is now.
    func indexName(of user: User.ID, _ displayName: String) async throws {
        try await self.sql.raw("DELETE FROM user_search_terms WHERE user_id = \(bind: user.rawValue)").run()
        for term in NameSearch.terms(of: displayName) {
            try await self.sql.raw(
                """
                INSERT INTO user_search_terms (whole, term, user_id, display_name, photo_key, visibility_photo, disabled)
                SELECT \(bind: term.whole), \(bind: term.text), id, display_name, photo_key, visibility_photo, disabled_at IS NOT NULL
                FROM users WHERE id = \(bind: user.rawValue)
                """
            ).run()
        }
    }

    /// Indexes the name of every account that has no entries yet, a thousand at a time in id order (accounts
    /// made before the index existed).
    func indexEveryName(progress: @Sendable (String) -> Void) async throws {
        var after = ""
        var indexed = 0
        while true {
            let rows = try await self.sql.raw(
                """
                SELECT id, display_name FROM users u
                WHERE id > \(bind: after) AND NOT EXISTS (SELECT 1 FROM user_search_terms t WHERE t.user_id = u.id)
                ORDER BY id LIMIT 1000
                """
            ).all()
            guard let last = rows.last else { break }
            for row in rows {
                try await self.indexName(
                    of: User.ID(try row.decode(column: "id", as: String.self)),
                    try row.decode(column: "display_name", as: String.self)
                )
            }
            after = try last.decode(column: "id", as: String.self)
            indexed += rows.count
            progress("\(indexed) names indexed")
        }
    }

    /// People whose name has a term starting with `prefix`, in term order after `cursor` (the last term and
    /// id of the page before), `limit` index entries at most: someone matching twice appears twice.
    public func people(
        matching prefix: NameSearch.Term,
        after cursor: (term: String, user: User.ID)?,
        limit: Int,
        seenBy viewer: User.ID
    ) async throws -> [(term: String, person: PersonFound)] {
        let after = cursor.map {
            SQLQueryString(
                "AND (t.term > \(bind: $0.term) OR (t.term = \(bind: $0.term) AND t.user_id > \(bind: $0.user.rawValue)))"
            )
        }
        return try await self.sql.raw(
            """
            SELECT t.term, t.user_id AS id, t.display_name, t.photo_key, t.visibility_photo, \(Transaction.edgeColumns(viewer, of: "t.user_id"))
            FROM user_search_terms t
            WHERE t.whole = \(bind: prefix.whole) AND t.term >= \(bind: prefix.text)
                AND t.term < \(bind: NameSearch.upperBound(of: prefix.text)) \(after ?? "") AND NOT t.disabled
            ORDER BY t.term, t.user_id LIMIT \(unsafeRaw: String(limit))
            """
        ).all().map { row in (try row.decode(column: "term", as: String.self), try Self.personFound(from: row)) }
    }

    /// The accounts with exactly this (lowercased) address.
    public func people(withEmail email: String, seenBy viewer: User.ID) async throws -> [PersonFound] {
        try await self.sql.raw(
            """
            SELECT u.id, u.display_name, u.photo_key, u.visibility_photo, \(Transaction.edgeColumns(viewer))
            FROM users u WHERE u.email = \(bind: email) AND u.disabled_at IS NULL ORDER BY u.created_at, u.id LIMIT 20
            """
        ).all().map(Self.personFound(from:))
    }

    private static func personFound(from row: any SQLRow) throws -> PersonFound {
        PersonFound(
            userID: User.ID(try row.decode(column: "id", as: String.self)),
            displayName: try row.decode(column: "display_name", as: String.self),
            photo: try Transaction.photo(row),
            edge: try Transaction.friendEdge(from: row)
        )
    }
}

/// SQL helpers every namespace may use.
extension Transaction {
    /// How the person whose id is the column `person` stands to `viewer`: the columns `friendEdge(from:)` reads.
    static func edgeColumns(_ viewer: User.ID, of person: StaticString = "u.id") -> SQLQueryString {
        let me = viewer.rawValue
        let them: SQLQueryString = "\(unsafeRaw: person.description)"
        return """
            EXISTS (SELECT 1 FROM friendships f WHERE f.user_id = \(bind: me) AND f.friend_id = \(them)) AS are_friends,
            EXISTS (SELECT 1 FROM friend_requests r WHERE r.from_user = \(bind: me) AND r.to_user = \(them)) AS requested_by_me,
            EXISTS (SELECT 1 FROM friend_requests r WHERE r.from_user = \(them) AND r.to_user = \(bind: me)) AS requested_by_them,
            EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = \(bind: me) AND b.blocked_id = \(them)) AS blocked_by_me,
            EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = \(them) AND b.blocked_id = \(bind: me)) AS blocked_by_them
            """
    }

    static func friendEdge(from row: any SQLRow) throws -> FriendEdge {
        FriendEdge(
            areFriends: try row.decode(column: "are_friends", as: Bool.self),
            requestedByMe: try row.decode(column: "requested_by_me", as: Bool.self),
            requestedByThem: try row.decode(column: "requested_by_them", as: Bool.self),
            blockedByMe: try row.decode(column: "blocked_by_me", as: Bool.self),
            blockedByThem: try row.decode(column: "blocked_by_them", as: Bool.self)
        )
    }
}
