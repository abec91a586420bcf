extension Migrations {
    static let v044 = Migration(
        version: 44,
        name: "the day's events cover their activity",
        statements: [
            // The nightly rollup counts the users active on a day, a week and a month (an app event, or one of the
            // server's events of something the user did). With the source and the user in the day's index it
            // counts them from the index alone, without reading a row an event.
            .init("CREATE INDEX analytics_events_day_activity ON analytics_events (local_date, name, source, user_id)"),
            .init("DROP INDEX analytics_events_day"),
        ]
    )
}
