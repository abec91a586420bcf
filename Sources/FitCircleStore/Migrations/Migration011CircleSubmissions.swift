extension Migrations {
    static let v011 = Migration(
        version: 11,
        name: "circle submissions",
        statements: [
            // rank_after and rank_change are written by the boards.
            .init(
                """
                CREATE TABLE circle_submissions (
                    circle_id TEXT NOT NULL REFERENCES circles (id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    local_date TEXT NOT NULL,
                    steps INTEGER NOT NULL,
                    weight_kg DOUBLE PRECISION,
                    submitted_at TIMESTAMPTZ NOT NULL,
                    updated_at TIMESTAMPTZ NOT NULL,
                    rank_after INTEGER,
                    rank_change INTEGER,
                    PRIMARY KEY (circle_id, user_id, local_date)
                )
                """
            ),
            .init("CREATE INDEX circle_submissions_user ON circle_submissions (user_id, local_date)"),
        ]
    )
}
