extension Migrations {
    static let v005 = Migration(
        version: 5,
        name: "points ledger, reward stats, badges",
        statements: [
            .init(
                sqlite:
                    "CREATE TABLE points_ledger (seq INTEGER PRIMARY KEY AUTOINCREMENT, \(Self.pointsLedgerColumns))",
                postgres: "CREATE TABLE points_ledger (seq BIGSERIAL PRIMARY KEY, \(Self.pointsLedgerColumns))"
            ),
            .init("CREATE INDEX points_ledger_user_date ON points_ledger (user_id, local_date)"),
            .init("CREATE INDEX points_ledger_user_seq ON points_ledger (user_id, seq)"),
            .init(
                """
                CREATE TABLE reward_stats (
                    user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                    total_points BIGINT NOT NULL,
                    level INTEGER NOT NULL,
                    counters TEXT NOT NULL,
                    updated_at TIMESTAMPTZ NOT NULL
                )
                """
            ),
            .init(
                """
                CREATE TABLE user_badges (
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    badge_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    local_date TEXT NOT NULL,
                    unlocked_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (user_id, badge_id)
                )
                """
            ),
            .init("CREATE INDEX user_badges_badge ON user_badges (badge_id)"),
            .init(
                """
                CREATE TABLE badge_showcases (
                    user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                    badge_ids TEXT NOT NULL,
                    updated_at TIMESTAMPTZ NOT NULL
                )
                """
            ),
            .init(
                """
                CREATE TABLE reward_events (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    local_date TEXT NOT NULL,
                    data TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL
                )
                """
            ),
            .init("CREATE INDEX reward_events_user ON reward_events (user_id, created_at)"),
        ]
    )

    private static let pointsLedgerColumns = """
        id TEXT NOT NULL UNIQUE,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        local_date TEXT NOT NULL,
        amount INTEGER NOT NULL,
        reason TEXT NOT NULL,
        source_key TEXT NOT NULL,
        source_event_id TEXT,
        multiplier DOUBLE PRECISION,
        counted INTEGER NOT NULL,
        excess INTEGER NOT NULL,
        detail TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        UNIQUE (user_id, source_key)
        """
}
