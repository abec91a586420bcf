extension Migrations {
    static let v031 = Migration(
        version: 31,
        name: "analytics events",
        statements: [
            // Issue 24: the apps' events and the server's own, one row per user and key (a repeat is the
            // same event). `forward_pending` is set only while forwarding is configured, so the index of
            // what is still to forward stays empty on a server that forwards nothing.
            .init(
                """
                CREATE TABLE analytics_events (
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    event_key TEXT NOT NULL,
                    name TEXT NOT NULL,
                    source TEXT NOT NULL,
                    occurred_at TIMESTAMPTZ NOT NULL,
                    local_date TEXT NOT NULL,
                    properties TEXT NOT NULL,
                    received_at TIMESTAMPTZ NOT NULL,
                    forward_pending INTEGER,
                    PRIMARY KEY (user_id, event_key)
                )
                """
            ),
            .init("CREATE INDEX analytics_events_day ON analytics_events (local_date, name)"),
            .init("CREATE INDEX analytics_events_forward ON analytics_events (received_at) WHERE forward_pending = 1"),
        ]
    )
}
