extension Migrations {
    static let v038 = Migration(
        version: 38,
        name: "app events by arrival, for their quota and retention",
        statements: [
            .init("CREATE INDEX analytics_events_user_received ON analytics_events (user_id, received_at)"),
            .init("CREATE INDEX analytics_events_received ON analytics_events (received_at) WHERE source = 'app'"),
        ]
    )
}
