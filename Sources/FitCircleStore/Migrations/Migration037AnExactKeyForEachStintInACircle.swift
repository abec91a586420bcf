extension Migrations {
    static let v037 = Migration(
        version: 37,
        name: "an exact key for each stint in a circle",
        statements: [
            // A person's stints in a circle, numbered from 0: with the circle, an exact key to page by (an
            // instant read back through a Double is not the value stored, so paging by `joined_at` could
            // read the same row forever).
            .init("ALTER TABLE circle_members ADD COLUMN stint INTEGER NOT NULL DEFAULT 0"),
            .init(
                """
                UPDATE circle_members SET stint = (
                    SELECT COUNT(*) FROM circle_members e WHERE e.circle_id = circle_members.circle_id
                        AND e.user_id = circle_members.user_id AND e.joined_at < circle_members.joined_at)
                """
            ),
        ]
    )
}
