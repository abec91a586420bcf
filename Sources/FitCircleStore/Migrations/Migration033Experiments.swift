extension Migrations {
    static let v033 = Migration(
        version: 33,
        name: "experiments",
        statements: [
            // Issue 24: A/B tests of rule profiles. Assignment is a hash, so nothing is stored to look it
            // up; an exposure row records the first time a person's variant was applied to them, with the
            // local days their 7- and 30-day retention is read on.
            .init(
                """
                CREATE TABLE experiments (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    description TEXT NOT NULL,
                    variants TEXT NOT NULL,
                    state TEXT NOT NULL,
                    rollout_percent INTEGER NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL,
                    started_at TIMESTAMPTZ,
                    stopped_at TIMESTAMPTZ,
                    updated_at TIMESTAMPTZ NOT NULL
                )
                """
            ),
            .init(
                """
                CREATE TABLE experiment_exposures (
                    experiment_id TEXT NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    variant TEXT NOT NULL,
                    exposed_at TIMESTAMPTZ NOT NULL,
                    local_date TEXT NOT NULL,
                    day7 TEXT NOT NULL,
                    day30 TEXT NOT NULL,
                    PRIMARY KEY (experiment_id, user_id)
                )
                """
            ),
            .init("CREATE INDEX experiment_exposures_user ON experiment_exposures (user_id)"),
        ]
    )
}
