extension Migrations {
    static let v046 = Migration(
        version: 46,
        name: "activities keep when they changed",
        statements: [
            // When the server last changed the row (recorded, edited, made visible to others, deleted), for
            // an app that mirrors its activities and asks what changed since its last sync. Rows from before
            // count as changed when recorded, or deleted.
            .init("ALTER TABLE activity_events ADD COLUMN changed_at TIMESTAMPTZ"),
            .init("UPDATE activity_events SET changed_at = COALESCE(deleted_at, received_at)"),
            .init("CREATE INDEX activity_events_user_changed ON activity_events (user_id, changed_at, id)"),
        ]
    )
}
