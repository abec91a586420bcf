extension Migrations {
    static let v008 = Migration(
        version: 8,
        name: "push devices and the notification log",
        statements: [
            .init(
                """
                CREATE TABLE push_devices (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    platform TEXT NOT NULL,
                    token TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    active BOOLEAN NOT NULL,
                    registered_at TIMESTAMPTZ NOT NULL,
                    UNIQUE (platform, token)
                )
                """
            ),
            .init("CREATE INDEX push_devices_user ON push_devices (user_id)"),
            .init(
                """
                CREATE TABLE notifications (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    type TEXT NOT NULL,
                    dedupe_key TEXT NOT NULL,
                    critical BOOLEAN NOT NULL,
                    title TEXT NOT NULL,
                    body TEXT NOT NULL,
                    deep_link TEXT,
                    data TEXT NOT NULL,
                    status TEXT NOT NULL,
                    reason TEXT,
                    channels TEXT NOT NULL,
                    local_date TEXT NOT NULL,
                    decided_at TIMESTAMPTZ NOT NULL,
                    deliver_at TIMESTAMPTZ,
                    read_at TIMESTAMPTZ,
                    opened_at TIMESTAMPTZ,
                    action_at TIMESTAMPTZ,
                    trail TEXT NOT NULL,
                    UNIQUE (user_id, dedupe_key)
                )
                """
            ),
            .init("CREATE INDEX notifications_user_decided ON notifications (user_id, decided_at)"),
        ]
    )
}
