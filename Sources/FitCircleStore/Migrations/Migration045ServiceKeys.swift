extension Migrations {
    static let v045 = Migration(
        version: 45,
        name: "service keys",
        statements: [
            // A backend's credential (`ServiceKey`): only hashes of its secrets; scopes comma-separated. A name
            // is taken by one key at a time, until it is revoked.
            .init(
                """
                CREATE TABLE service_keys (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    scopes TEXT NOT NULL,
                    secret_hash TEXT NOT NULL,
                    previous_secret_hash TEXT,
                    previous_valid_until TIMESTAMPTZ,
                    created_at TIMESTAMPTZ NOT NULL,
                    rotated_at TIMESTAMPTZ,
                    last_used_at TIMESTAMPTZ,
                    revoked_at TIMESTAMPTZ
                )
                """
            ),
            .init("CREATE UNIQUE INDEX service_keys_live_name ON service_keys (name) WHERE revoked_at IS NULL"),
        ]
    )
}
