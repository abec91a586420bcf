public import FitCircleCore
public import Foundation

/// Where uploaded files (profile photos) live: a local directory now, an object store later.
public protocol BlobStore: Sendable {
    /// Stores `data` under `key`, replacing what was there.
    func put(_ data: Data, contentType: String, key: String) async throws
    /// The bytes and content type under `key`, or `nil`.
    func get(_ key: String) async throws -> Blob?
    /// Removes `key`; removing a missing key is not an error.
    func delete(_ key: String) async throws
}
