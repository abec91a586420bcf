extension Migrations {
    static let v026 = Migration(
        version: 26,
        name: "weekly content",
        statements: [
            // Spec 003 §1: what an app publishes per ISO week ("2026-W10"), and who has seen which.
            .init(
                """
                CREATE TABLE weekly_content (
                    content_key TEXT NOT NULL,
                    week TEXT NOT NULL,
                    published_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (week, content_key)
                )
                """
            ),
            .init(
                """
                CREATE TABLE weekly_content_seen (
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    week TEXT NOT NULL,
                    content_key TEXT NOT NULL,
                    seen_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (user_id, week, content_key)
                )
                """
            ),
        ]
    )
}
