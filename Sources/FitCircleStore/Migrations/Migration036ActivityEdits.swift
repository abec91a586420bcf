extension Migrations {
    static let v036 = Migration(
        version: 36,
        name: "activity edits",
        statements: [
            // An edit replaces the event's content in place; the latest edit made on any device wins.
            .init("ALTER TABLE activity_events ADD COLUMN revision INTEGER NOT NULL DEFAULT 0"),
            .init("ALTER TABLE activity_events ADD COLUMN modified_at TIMESTAMPTZ"),
        ]
    )
}
