extension Migrations {
    static let v012 = Migration(
        version: 12,
        name: "circle boards, snapshots and feed",
        statements: [
            .init("ALTER TABLE circle_submissions ADD COLUMN checkin_streak INTEGER NOT NULL DEFAULT 0"),
            // One row per member on each board they have a claim on; derived from circle_submissions.
            // reached_ms: milliseconds since 1970, so both databases and the in-memory index agree on ties.
            .init(
                """
                CREATE TABLE circle_scores (
                    circle_id TEXT NOT NULL REFERENCES circles (id) ON DELETE CASCADE,
                    period TEXT NOT NULL,
                    period_start TEXT NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    value DOUBLE PRECISION NOT NULL,
                    reached_ms BIGINT NOT NULL,
                    PRIMARY KEY (circle_id, period, period_start, user_id)
                )
                """
            ),
            .init(
                "CREATE INDEX circle_scores_order ON circle_scores (circle_id, period, period_start, value DESC, reached_ms, user_id)"
            ),
            // The final ranks of a closed period: the baseline of the arrows and the history.
            .init(
                """
                CREATE TABLE circle_board_snapshots (
                    circle_id TEXT NOT NULL REFERENCES circles (id) ON DELETE CASCADE,
                    period TEXT NOT NULL,
                    period_start TEXT NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    rank INTEGER NOT NULL,
                    value DOUBLE PRECISION NOT NULL,
                    taken_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (circle_id, period, period_start, user_id)
                )
                """
            ),
            .init(
                "CREATE INDEX circle_board_snapshots_rank ON circle_board_snapshots (circle_id, period, period_start, rank)"
            ),
            .init(
                """
                CREATE TABLE circle_feed (
                    id TEXT PRIMARY KEY,
                    circle_id TEXT NOT NULL REFERENCES circles (id) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    actor_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    text TEXT NOT NULL,
                    data TEXT NOT NULL,
                    dedupe_key TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL,
                    UNIQUE (circle_id, dedupe_key)
                )
                """
            ),
            .init("CREATE INDEX circle_feed_order ON circle_feed (circle_id, created_at, id)"),
            .init(
                """
                CREATE TABLE circle_encouragements (
                    item_id TEXT NOT NULL REFERENCES circle_feed (id) ON DELETE CASCADE,
                    sender_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    message TEXT,
                    created_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (item_id, sender_id)
                )
                """
            ),
        ]
    )
}
