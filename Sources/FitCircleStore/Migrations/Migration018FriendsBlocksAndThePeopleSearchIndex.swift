extension Migrations {
    static let v018 = Migration(
        version: 18,
        name: "friends, blocks and the people search index",
        statements: [
            // A request waits for its answer; accepting or declining deletes it.
            .init(
                """
                CREATE TABLE friend_requests (
                    from_user TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    to_user TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    created_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (from_user, to_user)
                )
                """
            ),
            .init("CREATE INDEX friend_requests_to ON friend_requests (to_user, created_at)"),
            // Mutual: one row each way, so "my friends" is a range of the primary key.
            .init(
                """
                CREATE TABLE friendships (
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    friend_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    since TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (user_id, friend_id)
                )
                """
            ),
            .init("CREATE INDEX friendships_friend ON friendships (friend_id)"),
            .init(
                """
                CREATE TABLE user_blocks (
                    blocker_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    blocked_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    created_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (blocker_id, blocked_id)
                )
                """
            ),
            .init("CREATE INDEX user_blocks_blocked ON user_blocks (blocked_id)"),
            // `NameSearch`'s terms: a prefix is a range of the primary key, compared byte by byte on both
            // databases (SQLite's default; PostgreSQL's "C" collation, whatever the database's is).
            .init(
                sqlite: """
                    CREATE TABLE user_search_terms (
                        whole BOOLEAN NOT NULL,
                        term TEXT NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        PRIMARY KEY (whole, term, user_id)
                    )
                    """,
                postgres: """
                    CREATE TABLE user_search_terms (
                        whole BOOLEAN NOT NULL,
                        term TEXT COLLATE "C" NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        PRIMARY KEY (whole, term, user_id)
                    )
                    """
            ),
            .init("CREATE INDEX user_search_terms_user ON user_search_terms (user_id)"),
        ],
        // Accounts made before the index are indexed by migration 41, whose entries carry more.
    )
}
