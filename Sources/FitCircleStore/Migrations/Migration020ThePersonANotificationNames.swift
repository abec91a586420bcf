extension Migrations {
    static let v020 = Migration(
        version: 20,
        name: "the person a notification names",
        statements: [
            // Copied from `data` (`NotificationNaming.actorKey`): a deleted account's mentions are found by
            // index, not by reading every notification.
            .init("ALTER TABLE notifications ADD COLUMN actor_id TEXT"),
            .init("CREATE INDEX notifications_actor ON notifications (actor_id) WHERE actor_id IS NOT NULL"),
        ]
    )
}
