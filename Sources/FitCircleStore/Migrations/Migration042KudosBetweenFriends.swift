extension Migrations {
    static let v042 = Migration(
        version: 42,
        name: "kudos between friends",
        statements: [
            // One row per giver and receiver: giving twice changes nothing; either account's deletion takes the row.
            .init(
                """
                CREATE TABLE kudos (
                    receiver_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    giver_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    given_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (receiver_id, giver_id)
                )
                """
            ),
            .init("CREATE INDEX kudos_by_giver ON kudos (giver_id)"),
        ]
    )
}
