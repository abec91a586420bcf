extension Migrations {
    static let v013 = Migration(
        version: 13,
        name: "circle member counts",
        statements: [
            // Kept by every join and leave (under the circle's lock): counting a 50,000-member circle's
            // open stints took ~9 ms, on each read of its board.
            .init("ALTER TABLE circles ADD COLUMN member_count INTEGER NOT NULL DEFAULT 0"),
            .init(
                """
                UPDATE circles SET member_count = (
                    SELECT COUNT(*) FROM circle_members m WHERE m.circle_id = circles.id AND m.left_at IS NULL)
                """
            ),
        ]
    )
}
