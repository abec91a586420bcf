extension Migrations {
    static let v004 = Migration(
        version: 4,
        name: "training settings, daily and weekly goals",
        statements: [
            .init(
                """
                CREATE TABLE training_settings (
                    user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                    settings TEXT NOT NULL,
                    updated_at TIMESTAMPTZ NOT NULL
                )
                """
            ),
            .init(
                """
                CREATE TABLE goals (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    span TEXT NOT NULL,
                    period TEXT NOT NULL,
                    type TEXT NOT NULL,
                    target DOUBLE PRECISION NOT NULL,
                    basis TEXT NOT NULL,
                    completed_at TIMESTAMPTZ,
                    created_at TIMESTAMPTZ NOT NULL,
                    UNIQUE (user_id, span, period, type)
                )
                """
            ),
            .init(
                """
                CREATE TABLE weekly_summaries (
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    week_start TEXT NOT NULL,
                    seen_at TIMESTAMPTZ,
                    choice TEXT,
                    chosen_at TIMESTAMPTZ,
                    PRIMARY KEY (user_id, week_start)
                )
                """
            ),
        ]
    )
}
