extension Migrations {
    static let v025 = Migration(
        version: 25,
        name: "circle step goals",
        statements: [
            // Step circles with an end: the steps each member aims for over the competition (spec 000 F2).
            .init("ALTER TABLE circles ADD COLUMN step_goal INTEGER")
        ]
    )
}
