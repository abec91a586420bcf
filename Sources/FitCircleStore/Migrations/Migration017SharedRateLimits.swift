extension Migrations {
    static let v017 = Migration(
        version: 17,
        name: "shared rate limits",
        statements: [
            // The limits every node must count together (sign-in, refresh, join, invite): one instant per
            // key, `RateLimit`'s state. Rows whose instant has passed carry nothing and are purged.
            .init("CREATE TABLE rate_limits (limit_key TEXT PRIMARY KEY, arrival TIMESTAMPTZ NOT NULL)"),
            .init("CREATE INDEX rate_limits_arrival ON rate_limits (arrival)"),
        ]
    )
}
