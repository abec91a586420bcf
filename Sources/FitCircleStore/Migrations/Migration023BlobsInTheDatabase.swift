extension Migrations {
    static let v023 = Migration(
        version: 23,
        name: "blobs in the database",
        statements: [
            // For `DatabaseBlobStore`: files (profile photos) where every node finds them.
            .init(
                sqlite: "CREATE TABLE blobs (key TEXT PRIMARY KEY, content_type TEXT NOT NULL, data BLOB NOT NULL)",
                postgres: "CREATE TABLE blobs (key TEXT PRIMARY KEY, content_type TEXT NOT NULL, data BYTEA NOT NULL)"
            )
        ]
    )
}
