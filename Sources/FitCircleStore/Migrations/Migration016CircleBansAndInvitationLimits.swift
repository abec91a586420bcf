extension Migrations {
    static let v016 = Migration(
        version: 16,
        name: "circle bans and invitation limits",
        statements: [
            // Invitations lapse 14 days after created_at (no column: the rule is in Core) or when revoked.
            .init("ALTER TABLE circle_invitations ADD COLUMN revoked_at TIMESTAMPTZ"),
            // The daily caps count invitations per sender and per recipient (account or address).
            .init("CREATE INDEX circle_invitations_sender ON circle_invitations (invited_by, created_at)"),
            .init("CREATE INDEX circle_invitations_email ON circle_invitations (email, created_at)"),
            // A removed member stays out (join code or not) until a manager lifts the ban.
            .init(
                """
                CREATE TABLE circle_bans (
                    circle_id TEXT NOT NULL REFERENCES circles (id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    banned_by TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    banned_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (circle_id, user_id)
                )
                """
            ),
        ]
    )
}
