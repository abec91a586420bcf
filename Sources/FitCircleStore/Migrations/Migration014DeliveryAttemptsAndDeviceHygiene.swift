extension Migrations {
    static let v014 = Migration(
        version: 14,
        name: "delivery attempts and device hygiene",
        statements: [
            // Every try to hand a notification to a provider, per target (a device, an address, the webhook).
            .init(
                """
                CREATE TABLE delivery_attempts (
                    id TEXT PRIMARY KEY,
                    notification_id TEXT NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
                    channel TEXT NOT NULL,
                    target TEXT NOT NULL,
                    provider TEXT NOT NULL,
                    attempt INTEGER NOT NULL,
                    outcome TEXT NOT NULL,
                    reason TEXT,
                    status INTEGER,
                    latency_ms INTEGER NOT NULL,
                    attempted_at TIMESTAMPTZ NOT NULL
                )
                """
            ),
            .init("CREATE INDEX delivery_attempts_notification ON delivery_attempts (notification_id, attempted_at)"),
            // A device's last successful delivery (tokens unused for 270 days expire), how often in a row
            // a provider doubted its token, and why it was deactivated.
            .init("ALTER TABLE push_devices ADD COLUMN last_used_at TIMESTAMPTZ"),
            .init("ALTER TABLE push_devices ADD COLUMN suspect_count INTEGER NOT NULL DEFAULT 0"),
            .init("ALTER TABLE push_devices ADD COLUMN deactivated_reason TEXT"),
        ]
    )
}
