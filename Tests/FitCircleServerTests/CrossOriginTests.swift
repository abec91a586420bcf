import FitCircleServer
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// A web app served from another origin calls the API from a browser (issue 46): the origins the operator
/// lists (`server.corsOrigins`) get their preflights answered and may read every answer, a problem or a hot
/// read included; any other origin gets no such header, and without the setting nobody does.
struct CrossOriginTests {
    static let app = "https://app.example.com"

    static func request(
        _ app: TestApp,
        _ method: HTTPRequest.Method,
        _ path: String,
        origin: String,
        token: String? = nil,
        preflight: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.origin: origin]
        if let preflight {
            headers[.accessControlRequestMethod] = preflight
            headers[.accessControlRequestHeaders] = "authorization, content-type, idempotency-key"
        }
        return try await app.request(method, path, token: token, headers: headers)
    }

    @Test(arguments: Backend.available)
    func aListedOriginIsAnsweredAndMayReadEveryAnswer(_ backend: Backend) async throws {
        try await withTestApp(backend, web: WebSettings(corsOrigins: [Self.app])) { app async throws in
            let ana = try await app.person(named: "Ana")
            let token = try await ana.token(app)
            let preflight = try await Self.request(
                app,
                .options,
                "/api/activities",
                origin: Self.app,
                preflight: "POST"
            )
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == Self.app)
            #expect(preflight.headers[.accessControlAllowMethods]?.contains("POST") == true)
            #expect(preflight.headers[.accessControlAllowHeaders]?.contains("Idempotency-Key") == true)
            #expect(preflight.headers[.accessControlAllowCredentials] == nil, "no cookies across origins")

            let circle = try await app.createCircle(by: ana, ["name": "Walkers", "metric": "steps"])
            for (path, status) in [
                ("/api/user/profile", HTTPResponse.Status.ok),
                // A hot read, served before the router's trie.
                ("/api/fitcircles/\(circle.id)/leaderboard", .ok),
                ("/api/activities/nope", .notFound),
            ] {
                let answer = try await Self.request(app, .get, path, origin: Self.app, token: token)
                #expect(answer.status == status, "\(path): \(answer.text)")
                #expect(answer.headers[.accessControlAllowOrigin] == Self.app, "\(path)")
                #expect(answer.headers[.accessControlExposeHeaders]?.contains("ETag") == true, "\(path)")
                #expect(answer.headers[values: .vary].contains { $0.contains("Origin") }, "\(path)")
            }
            // Without credentials: the problem says so, and the app may read it.
            let refused = try await Self.request(app, .get, "/api/user/profile", origin: Self.app)
            #expect(refused.status == .unauthorized && refused.headers[.accessControlAllowOrigin] == Self.app)

            // Another origin: nothing says it may read, and its preflight is not answered as one.
            let other = try await Self.request(
                app,
                .get,
                "/api/user/profile",
                origin: "https://evil.example",
                token: token
            )
            #expect(other.status == .ok && other.headers[.accessControlAllowOrigin] == nil)
            // Its answer differs from a listed origin's: caches keep them apart.
            #expect(other.headers[values: .vary].contains { $0.contains("Origin") })
            let otherPreflight = try await Self.request(
                app,
                .options,
                "/api/activities",
                origin: "https://evil.example",
                preflight: "POST"
            )
            #expect(otherPreflight.headers[.accessControlAllowOrigin] == nil && otherPreflight.status != .noContent)
        }
    }

    @Test(arguments: Backend.available)
    func withoutTheSettingNoOriginMayRead(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.person(named: "Ana").token(app)
            let answer = try await Self.request(app, .get, "/api/user/profile", origin: Self.app, token: token)
            #expect(answer.status == .ok && answer.headers[.accessControlAllowOrigin] == nil)
        }
    }
}
