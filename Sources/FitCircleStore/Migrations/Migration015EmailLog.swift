extension Migrations {
    static let v015 = Migration(
        version: 15,
        name: "email log",
        statements: [
            // One email per notification (its retries reuse the row, the Message-ID and the links): where it
            // went, what it said, where its tracked links lead, and when it was opened and clicked.
            .init(
                """
                CREATE TABLE email_log (
                    notification_id TEXT PRIMARY KEY REFERENCES notifications (id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    type TEXT NOT NULL,
                    address TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    links TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL,
                    opened_at TIMESTAMPTZ,
                    open_count INTEGER NOT NULL DEFAULT 0,
                    clicked_at TIMESTAMPTZ,
                    click_count INTEGER NOT NULL DEFAULT 0
                )
                """
            ),
            .init("CREATE INDEX email_log_user ON email_log (user_id, created_at)"),
        ]
    )
}
