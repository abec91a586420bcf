extension Migrations {
    static let v039 = Migration(
        version: 39,
        name: "a web sign-in's nonce works once",
        statements: [
            // The web flow keeps its nonce in the browser's cookie; the server remembers which were used, until
            // the token that carried one has expired, so a captured callback cannot sign in again.
            .init("CREATE TABLE used_sign_in_nonces (nonce_hash TEXT PRIMARY KEY, expires_at TIMESTAMPTZ NOT NULL)"),
            .init("CREATE INDEX used_sign_in_nonces_expiry ON used_sign_in_nonces (expires_at)"),
        ]
    )
}
