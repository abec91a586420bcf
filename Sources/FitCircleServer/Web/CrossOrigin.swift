import HTTPTypes
import Hummingbird

/// Which other origins' web apps may call the API from a browser (`server.corsOrigins`; the fetch spec's
/// CORS protocol): an allowed origin's preflight is answered here, and its answers say it may read them.
/// Credentials are never allowed across origins: such an app signs in with bearer tokens, and the web
/// session's cookies stay the server's own web app's.
public struct CrossOriginPolicy: Sendable {
    /// Origins as browsers send them (`https://app.example.com`), lower-cased; `*` allows any.
    public var origins: Set<String>

    public init(origins: Set<String>) {
        self.origins = Set(origins.map { $0.lowercased() })
    }

    /// An origin an operator may list: `*`, or a scheme, a host and an optional port, without a path.
    public static func isOrigin(_ text: String) -> Bool {
        if text == "*" { return true }
        let parts = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, ["http", "https"].contains(parts[0].lowercased()), !parts[1].isEmpty else {
            return false
        }
        return !parts[1].contains("/") && !parts[1].contains("?") && !parts[1].contains("#")
            && !parts[1].contains(" ")
    }

    /// Some origin is listed.
    var isOn: Bool { !self.origins.isEmpty }

    /// The origin the request comes from, when it is one this policy allows.
    func allowed(_ request: Request) -> String? {
        guard self.isOn, let origin = request.headers[.origin] else { return nil }
        return self.origins.contains("*") || self.origins.contains(origin.lowercased()) ? origin : nil
    }

    /// A preflight: what the browser asks before a request that is not "simple".
    static func isPreflight(_ request: Request) -> Bool {
        request.method == .options && request.headers[.accessControlRequestMethod] != nil
    }

    /// The answer to an allowed origin's preflight: every method and request header the API reads, for 10
    /// minutes.
    static func preflight(for origin: String) -> Response {
        var response = Response(status: .noContent)
        Self.allow(origin, in: &response)
        response.headers[.accessControlAllowMethods] = "GET, POST, PUT, PATCH, DELETE"
        response.headers[.accessControlAllowHeaders] = Self.requestHeaders
        response.headers[.accessControlMaxAge] = "600"
        return response
    }

    /// Says on `response` that `origin` may read it, and which of its headers beyond the simple ones.
    static func allow(_ origin: String, in response: inout Response) {
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.accessControlExposeHeaders] = Self.responseHeaders
        // The answer differs by Origin: a cache must not hand one origin's to another.
        response.headers.append(HTTPField(name: .vary, value: "Origin"))
    }

    static let requestHeaders =
        "Authorization, Content-Type, Accept-Language, Idempotency-Key, If-None-Match, Last-Event-ID, X-Request-Id"
    static let responseHeaders =
        "ETag, Location, Retry-After, RateLimit, RateLimit-Policy, Idempotent-Replayed, X-Request-Id, Deprecation, Link"
}
