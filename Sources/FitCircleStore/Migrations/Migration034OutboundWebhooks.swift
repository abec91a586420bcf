extension Migrations {
    static let v034 = Migration(
        version: 34,
        name: "outbound webhooks",
        statements: [
            // Issue 24: app backends' subscriptions to the server's domain events, and one row per event
            // and endpoint — the delivery log — whose delivery is a job retried with backoff.
            .init(
                """
                CREATE TABLE webhook_endpoints (
                    id TEXT PRIMARY KEY,
                    url TEXT NOT NULL,
                    events TEXT NOT NULL,
                    description TEXT NOT NULL,
                    secret TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL
                )
                """
            ),
            .init(
                """
                CREATE TABLE webhook_deliveries (
                    id TEXT PRIMARY KEY,
                    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
                    event TEXT NOT NULL,
                    event_key TEXT NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    payload TEXT NOT NULL,
                    status TEXT NOT NULL,
                    attempts INTEGER NOT NULL,
                    last_status INTEGER,
                    last_error TEXT,
                    created_at TIMESTAMPTZ NOT NULL,
                    delivered_at TIMESTAMPTZ,
                    UNIQUE (endpoint_id, user_id, event_key)
                )
                """
            ),
            .init("CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, created_at)"),
            .init("CREATE INDEX webhook_deliveries_user ON webhook_deliveries (user_id)"),
        ]
    )
}
