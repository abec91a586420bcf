extension Migrations {
    static let v030 = Migration(
        version: 30,
        name: "challenges created and hosted",
        statements: [
            // Spec 002 §4's social badges: challenges a person made, and people who joined them (moved
            // by one statement each, so concurrent joins all count).
            .init("ALTER TABLE challenge_records ADD COLUMN created INTEGER NOT NULL DEFAULT 0"),
            .init("ALTER TABLE challenge_records ADD COLUMN hosted INTEGER NOT NULL DEFAULT 0"),
        ]
    )
}
