public import FitCircleCore
public import Foundation
import SQLKit

/// Blobs as rows of the `blobs` table: every node of a cluster finds them with nothing more to run. Fit
/// for what FitCircle stores (profile photos of at most 5 MB); an object store (`S3BlobStore`) for more.
public struct DatabaseBlobStore: BlobStore {
    let store: Store

    public init(store: Store) {
        self.store = store
    }

    public func put(_ data: Data, contentType: String, key: String) async throws {
        try await self.store.transaction { tx in try await Self.put(data, contentType: contentType, key: key, in: tx) }
    }

    public func get(_ key: String) async throws -> Blob? {
        try await self.store.read { tx in try await Self.blob(key, in: tx) }
    }

    public func delete(_ key: String) async throws {
        try await self.store.transaction { tx in try await Self.delete(key, in: tx) }
    }
}

extension DatabaseBlobStore {
    private static func put(_ data: Data, contentType: String, key: String, in tx: Transaction) async throws {
        try await tx.sql.raw(
            """
            INSERT INTO blobs (key, content_type, data) VALUES (\(bind: key), \(bind: contentType), \(bind: data))
            ON CONFLICT (key) DO UPDATE SET content_type = excluded.content_type, data = excluded.data
            """
        ).run()
    }

    private static func blob(_ key: String, in tx: Transaction) async throws -> Blob? {
        try await tx.sql.raw("SELECT content_type, data FROM blobs WHERE key = \(bind: key)").first().map { row in
            Blob(
                data: try row.decode(column: "data", as: Data.self),
                contentType: try row.decode(column: "content_type", as: String.self)
            )
        }
    }

    private static func delete(_ key: String, in tx: Transaction) async throws {
        try await tx.sql.raw("DELETE FROM blobs WHERE key = \(bind: key)").run()
    }
}
