extension Migrations {
    static let v019 = Migration(
        version: 19,
        name: "activity visibility and reactions",
        statements: [
            // Who else sees an activity (`ActivityVisibility`); everything recorded before was for friends.
            .init("ALTER TABLE activity_events ADD COLUMN visibility TEXT NOT NULL DEFAULT 'friends'"),
            // The friends' feed reads each friend's workouts newest first.
            .init("CREATE INDEX activity_events_feed ON activity_events (user_id, kind, occurred_at, id)"),
            .init(
                """
                CREATE TABLE activity_reactions (
                    activity_id TEXT NOT NULL REFERENCES activity_events (id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    reaction TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (activity_id, user_id, reaction)
                )
                """
            ),
            .init("CREATE INDEX activity_reactions_user ON activity_reactions (user_id)"),
        ]
    )
}
