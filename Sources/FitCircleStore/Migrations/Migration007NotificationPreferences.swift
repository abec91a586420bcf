extension Migrations {
    static let v007 = Migration(
        version: 7,
        name: "notification preferences",
        statements: [
            .init(
                """
                CREATE TABLE notification_preferences (
                    user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                    preferences TEXT NOT NULL,
                    updated_at TIMESTAMPTZ NOT NULL
                )
                """
            )
        ]
    )
}
