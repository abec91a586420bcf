extension Migrations {
    static let v002 = Migration(
        version: 2,
        name: "activity ledger, daily tracking and idempotency keys",
        statements: [
            .init(
                """
                CREATE TABLE activity_events (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    client_event_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    occurred_at TIMESTAMPTZ NOT NULL,
                    time_zone TEXT NOT NULL,
                    local_date TEXT NOT NULL,
                    source TEXT NOT NULL,
                    received_at TIMESTAMPTZ NOT NULL,
                    payload TEXT NOT NULL,
                    flags TEXT NOT NULL,
                    workout_type TEXT,
                    duration_seconds DOUBLE PRECISION,
                    distance_meters DOUBLE PRECISION,
                    deleted_at TIMESTAMPTZ,
                    UNIQUE (user_id, client_event_id)
                )
                """
            ),
            .init("CREATE INDEX activity_events_user_date ON activity_events (user_id, local_date)"),
            .init("CREATE INDEX activity_events_user_occurred ON activity_events (user_id, occurred_at, id)"),
            .init(
                """
                CREATE TABLE daily_tracking (
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    local_date TEXT NOT NULL,
                    steps INTEGER NOT NULL,
                    synced_steps INTEGER NOT NULL,
                    manual_steps INTEGER NOT NULL,
                    weight_kg DOUBLE PRECISION,
                    workouts INTEGER NOT NULL,
                    active_minutes DOUBLE PRECISION NOT NULL,
                    distance_meters DOUBLE PRECISION NOT NULL,
                    calories DOUBLE PRECISION NOT NULL,
                    pushup_reps INTEGER NOT NULL,
                    water_ml DOUBLE PRECISION NOT NULL,
                    app_opened BOOLEAN NOT NULL,
                    updated_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (user_id, local_date)
                )
                """
            ),
            .init(
                """
                CREATE TABLE idempotency_keys (
                    user_id TEXT NOT NULL,
                    idempotency_key TEXT NOT NULL,
                    request_hash TEXT NOT NULL,
                    status_code INTEGER,
                    content_type TEXT,
                    body TEXT,
                    created_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (user_id, idempotency_key)
                )
                """
            ),
            .init("CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)"),
        ]
    )
}
