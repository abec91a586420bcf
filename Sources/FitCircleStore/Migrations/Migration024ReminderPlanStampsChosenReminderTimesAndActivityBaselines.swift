extension Migrations {
    static let v024 = Migration(
        version: 24,
        name: "reminder plan stamps, chosen reminder times and activity baselines",
        statements: [
            // When the user's scheduled notifications were last planned for them alone (a new account, a
            // new zone or reminder time), in milliseconds since 1970: triggers planned before pass them over.
            .init(
                sqlite: "ALTER TABLE users ADD COLUMN reminder_plan INTEGER",
                postgres: "ALTER TABLE users ADD COLUMN reminder_plan BIGINT"
            ),
            // `reminder_time` now holds only a time the user chose (it wins over the learned one); the
            // default every account was saved with is no choice.
            .init("UPDATE users SET reminder_time = NULL WHERE reminder_time = '20:00'"),
            // How active a newcomer says they are (sedentary | moderate): the first days' step goal.
            .init("ALTER TABLE users ADD COLUMN activity_baseline TEXT"),
        ]
    )
}
