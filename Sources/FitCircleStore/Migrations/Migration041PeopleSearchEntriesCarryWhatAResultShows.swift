extension Migrations {
    static let v041 = Migration(
        version: 41,
        name: "people search entries carry what a result shows",
        statements: [
            // A search reads its entries and nothing else (issue 42: the join to `users` was half of a search's
            // time at 1,000,000 accounts). `indexName` writes these from the account's row in the same
            // transaction as every change of it. A disabled account keeps its entries (the console finds it).
            // SQLite: rebuilt WITHOUT ROWID, so that its primary key holds the rows and a search reads one
            // b-tree (with a rowid, every entry was a second lookup).
            .init(
                sqlite: """
                    CREATE TABLE user_search_terms_shown (
                        whole BOOLEAN NOT NULL,
                        term TEXT NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        display_name TEXT NOT NULL,
                        photo_key TEXT,
                        visibility_photo TEXT NOT NULL,
                        disabled BOOLEAN NOT NULL,
                        PRIMARY KEY (whole, term, user_id)
                    ) WITHOUT ROWID
                    """,
                postgres: """
                    ALTER TABLE user_search_terms ADD COLUMN display_name TEXT NOT NULL DEFAULT '', ADD COLUMN photo_key TEXT,
                        ADD COLUMN visibility_photo TEXT NOT NULL DEFAULT 'only_me', ADD COLUMN disabled BOOLEAN NOT NULL DEFAULT FALSE
                    """
            ),
            .init(
                sqlite: """
                    INSERT INTO user_search_terms_shown
                    SELECT t.whole, t.term, t.user_id, u.display_name, u.photo_key, u.visibility_photo, u.disabled_at IS NOT NULL
                    FROM user_search_terms t JOIN users u ON u.id = t.user_id
                    """,
                postgres: """
                    UPDATE user_search_terms t SET display_name = u.display_name, photo_key = u.photo_key,
                        visibility_photo = u.visibility_photo, disabled = u.disabled_at IS NOT NULL
                    FROM users u WHERE u.id = t.user_id
                    """
            ),
            // PostgreSQL: the primary key's index includes what a result shows, so a search is an index-only scan.
            .init(
                sqlite: "DROP TABLE user_search_terms",
                postgres: """
                    ALTER TABLE user_search_terms DROP CONSTRAINT user_search_terms_pkey,
                        ADD PRIMARY KEY (whole, term, user_id) INCLUDE (display_name, photo_key, visibility_photo, disabled)
                    """
            ),
            .init(sqlite: "ALTER TABLE user_search_terms_shown RENAME TO user_search_terms", postgres: nil),
            .init(sqlite: "CREATE INDEX user_search_terms_user ON user_search_terms (user_id)", postgres: nil),
        ],
        // Accounts made before the index (version 18): their names are indexed in the same transaction.
        backfill: { tx, progress in try await tx.search.indexEveryName(progress: progress) }
    )
}
