extension Migrations {
    static let v021 = Migration(
        version: 21,
        name: "who sees a person's photo and their name on boards",
        statements: [
            .init("ALTER TABLE users ADD COLUMN visibility_photo TEXT NOT NULL DEFAULT 'everyone'"),
            .init("ALTER TABLE users ADD COLUMN visibility_board_name TEXT NOT NULL DEFAULT 'everyone'"),
        ]
    )
}
