extension Migrations {
    static let v006 = Migration(
        version: 6,
        name: "durable jobs",
        statements: [
            .init(
                """
                CREATE TABLE jobs (
                    id TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    dedupe_key TEXT NOT NULL UNIQUE,
                    status TEXT NOT NULL,
                    run_at TIMESTAMPTZ NOT NULL,
                    attempts INTEGER NOT NULL,
                    max_attempts INTEGER NOT NULL,
                    lease_owner TEXT,
                    lease_expires_at TIMESTAMPTZ,
                    last_error TEXT,
                    created_at TIMESTAMPTZ NOT NULL,
                    finished_at TIMESTAMPTZ
                )
                """
            ),
            .init("CREATE INDEX jobs_due ON jobs (status, run_at)"),
            .init("CREATE INDEX users_time_zone ON users (time_zone)"),
        ]
    )
}
