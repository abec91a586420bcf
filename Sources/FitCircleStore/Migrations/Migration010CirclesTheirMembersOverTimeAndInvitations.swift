extension Migrations {
    static let v010 = Migration(
        version: 10,
        name: "circles, their members over time and invitations",
        statements: [
            .init(
                """
                CREATE TABLE circles (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    description TEXT,
                    metric TEXT NOT NULL,
                    start_date TEXT NOT NULL,
                    end_date TEXT,
                    time_zone TEXT NOT NULL,
                    privacy TEXT NOT NULL,
                    member_limit INTEGER NOT NULL,
                    owner_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    join_code TEXT NOT NULL UNIQUE,
                    archived_at TIMESTAMPTZ,
                    created_at TIMESTAMPTZ NOT NULL,
                    updated_at TIMESTAMPTZ NOT NULL
                )
                """
            ),
            // One row per stint: leaving sets left_at, coming back adds a row. At most one open stint.
            .init(
                """
                CREATE TABLE circle_members (
                    circle_id TEXT NOT NULL REFERENCES circles (id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    role TEXT NOT NULL,
                    joined_at TIMESTAMPTZ NOT NULL,
                    left_at TIMESTAMPTZ,
                    starting_weight_kg DOUBLE PRECISION,
                    target_weight_kg DOUBLE PRECISION
                )
                """
            ),
            .init(
                "CREATE UNIQUE INDEX circle_members_current ON circle_members (circle_id, user_id) WHERE left_at IS NULL"
            ),
            .init("CREATE INDEX circle_members_user ON circle_members (user_id, circle_id)"),
            .init(
                """
                CREATE TABLE circle_invitations (
                    id TEXT PRIMARY KEY,
                    circle_id TEXT NOT NULL REFERENCES circles (id) ON DELETE CASCADE,
                    user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
                    email TEXT,
                    invited_by TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    created_at TIMESTAMPTZ NOT NULL,
                    accepted_at TIMESTAMPTZ
                )
                """
            ),
            .init("CREATE INDEX circle_invitations_circle ON circle_invitations (circle_id)"),
            .init("CREATE INDEX circle_invitations_user ON circle_invitations (user_id)"),
        ]
    )
}
