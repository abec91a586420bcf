extension Migrations {
    static let v022 = Migration(
        version: 22,
        name: "migration sessions",
        statements: [
            .init(
                """
                CREATE TABLE migration_sessions (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    expected INTEGER,
                    created_at TIMESTAMPTZ NOT NULL
                )
                """
            ),
            .init("CREATE INDEX migration_sessions_user ON migration_sessions (user_id, created_at)"),
            // Each client event once per session, with its latest answer (`MigrationSession.Outcome`).
            .init(
                """
                CREATE TABLE migration_events (
                    migration_id TEXT NOT NULL REFERENCES migration_sessions (id) ON DELETE CASCADE,
                    client_event_id TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    PRIMARY KEY (migration_id, client_event_id)
                )
                """
            ),
        ]
    )
}
