extension Migrations {
    static let v003 = Migration(
        version: 3,
        name: "check-ins and the streak ledger",
        statements: [
            .init("ALTER TABLE daily_tracking ADD COLUMN checked_in BOOLEAN NOT NULL DEFAULT FALSE"),
            .init("ALTER TABLE daily_tracking ADD COLUMN checked_in_late BOOLEAN NOT NULL DEFAULT FALSE"),
            .init("ALTER TABLE daily_tracking ADD COLUMN mood INTEGER"),
            .init("ALTER TABLE daily_tracking ADD COLUMN energy INTEGER"),
            .init("ALTER TABLE daily_tracking ADD COLUMN previous_day_sentiment TEXT"),
            .init(
                """
                CREATE TABLE streaks (
                    user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                    state TEXT NOT NULL,
                    evaluated_through TEXT NOT NULL,
                    updated_at TIMESTAMPTZ NOT NULL
                )
                """
            ),
            .init(
                """
                CREATE TABLE streak_entries (
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    period TEXT NOT NULL,
                    status TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    streak INTEGER NOT NULL,
                    state TEXT NOT NULL,
                    comeback BOOLEAN NOT NULL,
                    milestone INTEGER,
                    milestone_badge TEXT,
                    PRIMARY KEY (user_id, period)
                )
                """
            ),
            .init(
                """
                CREATE TABLE streak_freeze_requests (
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    period TEXT NOT NULL,
                    requested_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (user_id, period)
                )
                """
            ),
        ]
    )
}
