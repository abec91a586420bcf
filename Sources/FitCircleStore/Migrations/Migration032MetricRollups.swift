extension Migrations {
    static let v032 = Migration(
        version: 32,
        name: "metric rollups",
        statements: [
            // Issue 24: each metric's numerator and denominator per local day, written by the daily
            // rollup; and the indexes by day that let the rollup read one day of goals, streak
            // periods and sign-ups.
            .init(
                """
                CREATE TABLE metric_rollups (
                    day TEXT NOT NULL,
                    metric TEXT NOT NULL,
                    numerator DOUBLE PRECISION NOT NULL,
                    denominator DOUBLE PRECISION NOT NULL,
                    computed_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (day, metric)
                )
                """
            ),
            .init("CREATE INDEX goals_span_period ON goals (span, period)"),
            .init("CREATE INDEX streak_entries_period ON streak_entries (period)"),
            .init("CREATE INDEX users_created ON users (created_at)"),
        ]
    )
}
