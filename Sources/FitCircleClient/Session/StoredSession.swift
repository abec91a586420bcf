public import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a signed-in device keeps: the token pair and when each stops working.
public struct StoredSession: Codable, Sendable, Equatable {
    public var userID: String
    public var accessToken: String
    public var accessTokenExpiresAt: Date
    public var refreshToken: String
    public var refreshTokenExpiresAt: Date

    public init(
        userID: String,
        accessToken: String,
        accessTokenExpiresAt: Date,
        refreshToken: String,
        refreshTokenExpiresAt: Date
    ) {
        self.userID = userID
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
    }

    init(_ session: Components.Schemas.AuthSession) {
        self.init(
            userID: session.user.id,
            accessToken: session.accessToken,
            accessTokenExpiresAt: session.accessTokenExpiresAt,
            refreshToken: session.refreshToken,
            refreshTokenExpiresAt: session.refreshTokenExpiresAt
        )
    }
}

/// Where the session is kept between launches. It holds secrets: keep it where only this app reads it.
public protocol SessionStore: Sendable {
    func load() throws -> StoredSession?
    func save(_ session: StoredSession) throws
    func clear() throws
}

/// A session kept in memory only: signed out at every launch. For tests and previews.
public final class MemorySessionStore: SessionStore {
    private let session = LockedValue<StoredSession?>(nil)

    public init(_ session: StoredSession? = nil) {
        self.session.set(session)
    }

    public func load() -> StoredSession? { self.session.get() }
    public func save(_ session: StoredSession) { self.session.set(session) }
    public func clear() { self.session.set(nil) }
}

/// A session kept in a JSON file that only the current user may read or write (mode 0600), replaced
/// atomically: where there is no Keychain (Linux, command-line tools).
public struct FileSessionStore: SessionStore {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    public func load() throws -> StoredSession? {
        guard FileManager.default.fileExists(atPath: self.url.path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(StoredSession.self, from: Data(contentsOf: self.url))
    }

    public func save(_ session: StoredSession) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(session)
        try FileManager.default.createDirectory(
            at: self.url.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        // Written beside the file with owner-only permissions before anything is in it, then renamed over it.
        let temporary = self.url.appendingPathExtension("new")
        _ = FileManager.default.createFile(
            atPath: temporary.path,
            contents: nil,
            attributes: [.posixPermissions: 0o600]
        )
        let handle = try FileHandle(forWritingTo: temporary)
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        // rename(2) replaces the old file atomically (Foundation's replaceItemAt failed here on Linux).
        guard rename(temporary.path, self.url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    public func clear() throws {
        if FileManager.default.fileExists(atPath: self.url.path) { try FileManager.default.removeItem(at: self.url) }
    }
}
