extension Migrations {
    static let v009 = Migration(
        version: 9,
        name: "the daily planner's columns of users",
        // The daily planner reads, for every user of a zone, when to reach them: their reminder time, quiet
        // hours and habitual time. On the user's row that is one scan; a join, or decoding each user's
        // preferences, would cost more than the whole scan. `notification_preferences` stays the document
        // (these follow it on every save); `send_habit` follows the user's check-ins and workouts.
        statements: ["reminder_time", "quiet_start", "quiet_end", "send_habit"].map { column in
            .init("ALTER TABLE users ADD COLUMN \(column) TEXT")
        }
            + [("reminder_time", "reminderTime"), ("quiet_start", "quietStart"), ("quiet_end", "quietEnd")].map {
                column,
                key in
                .init(
                    sqlite:
                        "UPDATE users SET \(column) = (SELECT json_extract(preferences, '$.\(key)') FROM notification_preferences WHERE user_id = users.id)",
                    postgres:
                        "UPDATE users SET \(column) = (SELECT preferences::jsonb ->> '\(key)' FROM notification_preferences WHERE user_id = users.id)"
                )
            }
    )
}
