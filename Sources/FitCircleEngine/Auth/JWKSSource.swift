public import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1

/// Where a provider's public signing keys (a JSON Web Key Set) come from.
public protocol JWKSSource: Sendable {
    /// The key set as JSON. `refresh` asks for a fresh copy, e.g. when a token names an unknown key.
    func jwks(refresh: Bool) async throws -> String
}

/// A key set given as text, for tests and air-gapped installs.
public struct StaticJWKSSource: JWKSSource {
    public let json: String

    public init(json: String) {
        self.json = json
    }

    public func jwks(refresh _: Bool) async throws -> String { self.json }
}

/// A key set read from a file each time it is refreshed.
public struct FileJWKSSource: JWKSSource {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func jwks(refresh _: Bool) async throws -> String {
        try String(contentsOfFile: self.path, encoding: .utf8)
    }
}

/// A provider's key set fetched over HTTPS and cached as long as its `Cache-Control: max-age` allows.
public actor HTTPJWKSSource: JWKSSource {
    public let url: String
    private let httpClient: HTTPClient
    private let now: @Sendable () -> Date
    private var cached: (json: String, expiresAt: Date)?

    public init(url: String, httpClient: HTTPClient = .shared, now: @escaping @Sendable () -> Date) {
        self.url = url
        self.httpClient = httpClient
        self.now = now
    }

    public func jwks(refresh: Bool) async throws -> String {
        if !refresh, let cached, cached.expiresAt > self.now() {
            return cached.json
        }
        let response = try await self.httpClient.execute(HTTPClientRequest(url: self.url), timeout: .seconds(10))
        guard response.status == .ok else {
            throw JWKSUnavailable(url: self.url, status: Int(response.status.code))
        }
        let body = try await response.body.collect(upTo: 1 << 20)
        let json = String(buffer: body)
        let maxAge = Self.maxAge(response.headers.first(name: "cache-control")) ?? 3600
        self.cached = (json, self.now().addingTimeInterval(TimeInterval(maxAge)))
        return json
    }

    static func maxAge(_ cacheControl: String?) -> Int? {
        cacheControl?.split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("max-age=") }
            .flatMap { Int($0.dropFirst("max-age=".count)) }
    }
}

/// The provider's key set could not be fetched.
public struct JWKSUnavailable: Error, CustomStringConvertible {
    public var url: String
    public var status: Int
    public var description: String { "GET \(self.url) answered \(self.status)" }
}
