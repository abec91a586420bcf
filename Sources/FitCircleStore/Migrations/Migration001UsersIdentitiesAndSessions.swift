extension Migrations {
    static let v001 = Migration(
        version: 1,
        name: "users, identities and sessions",
        statements: [
            .init(
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    email TEXT NOT NULL,
                    role TEXT NOT NULL,
                    display_name TEXT NOT NULL,
                    age INTEGER,
                    weight_kg DOUBLE PRECISION,
                    weight_unit TEXT NOT NULL,
                    height_cm DOUBLE PRECISION,
                    height_unit TEXT NOT NULL,
                    gender TEXT,
                    time_zone TEXT NOT NULL,
                    visibility_age TEXT NOT NULL,
                    visibility_weight TEXT NOT NULL,
                    visibility_height TEXT NOT NULL,
                    photo_key TEXT,
                    onboarded_at TIMESTAMPTZ,
                    disabled_at TIMESTAMPTZ,
                    created_at TIMESTAMPTZ NOT NULL,
                    updated_at TIMESTAMPTZ NOT NULL
                )
                """
            ),
            .init("CREATE INDEX users_email ON users (email)"),
            .init(
                """
                CREATE TABLE identities (
                    provider TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    email TEXT,
                    created_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (provider, subject)
                )
                """
            ),
            .init("CREATE INDEX identities_user ON identities (user_id)"),
            .init(
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    created_at TIMESTAMPTZ NOT NULL,
                    revoked_at TIMESTAMPTZ,
                    revoked_reason TEXT
                )
                """
            ),
            .init("CREATE INDEX sessions_user ON sessions (user_id)"),
            .init(
                """
                CREATE TABLE refresh_tokens (
                    token_hash TEXT PRIMARY KEY,
                    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                    issued_at TIMESTAMPTZ NOT NULL,
                    expires_at TIMESTAMPTZ NOT NULL,
                    used_at TIMESTAMPTZ
                )
                """
            ),
            .init("CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id)"),
            .init(
                """
                CREATE TABLE server_secrets (
                    name TEXT PRIMARY KEY,
                    secret TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL
                )
                """
            ),
        ]
    )
}
