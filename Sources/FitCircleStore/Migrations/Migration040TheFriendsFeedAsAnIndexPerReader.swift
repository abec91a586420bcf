extension Migrations {
    static let v040 = Migration(
        version: 40,
        name: "the friends' feed as an index per reader",
        statements: [
            // A row per workout and per person whose feed it may enter (its author and the author's friends),
            // written when the workout is recorded (the author's own) and by a job after (the friends'), and
            // when two become friends. An index, never a copy: who may see it is decided when it is read.
            .init(
                """
                CREATE TABLE feed_entries (
                    reader_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    activity_id TEXT NOT NULL REFERENCES activity_events (id) ON DELETE CASCADE,
                    author_id TEXT NOT NULL,
                    occurred_at TIMESTAMPTZ NOT NULL,
                    workout_type TEXT,
                    PRIMARY KEY (reader_id, activity_id)
                )
                """
            ),
            .init("CREATE INDEX feed_entries_page ON feed_entries (reader_id, occurred_at, activity_id)"),
            .init(
                "CREATE INDEX feed_entries_type_page ON feed_entries (reader_id, workout_type, occurred_at, activity_id)"
            ),
            .init("CREATE INDEX feed_entries_author ON feed_entries (author_id, reader_id)"),
            .init("CREATE INDEX feed_entries_activity ON feed_entries (activity_id)"),
            .init(
                """
                INSERT INTO feed_entries (reader_id, activity_id, author_id, occurred_at, workout_type)
                SELECT user_id, id, user_id, occurred_at, workout_type FROM activity_events WHERE kind = 'workout'
                """
            ),
            .init(
                """
                INSERT INTO feed_entries (reader_id, activity_id, author_id, occurred_at, workout_type)
                SELECT f.user_id, a.id, a.user_id, a.occurred_at, a.workout_type
                FROM friendships f JOIN activity_events a ON a.user_id = f.friend_id AND a.kind = 'workout'
                """
            ),
        ]
    )
}
