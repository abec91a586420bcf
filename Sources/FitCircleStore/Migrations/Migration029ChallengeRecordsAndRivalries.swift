extension Migrations {
    static let v029 = Migration(
        version: 29,
        name: "challenge records and rivalries",
        statements: [
            // Spec 002 §3: each person's record (`ChallengeRecord` as JSON), and each pair of friends'
            // record against each other, both ways (`Rivalry`; its counts beside it to rank rivals by).
            .init(
                """
                CREATE TABLE challenge_records (
                    user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                    record TEXT NOT NULL,
                    updated_at TIMESTAMPTZ NOT NULL
                )
                """
            ),
            .init(
                """
                CREATE TABLE rivalries (
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    rival_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    meetings INTEGER NOT NULL,
                    wins INTEGER NOT NULL,
                    losses INTEGER NOT NULL,
                    record TEXT NOT NULL,
                    PRIMARY KEY (user_id, rival_id)
                )
                """
            ),
        ]
    )
}
