import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

struct OperationsTests {
    @Test(arguments: Backend.available)
    func healthAndReadinessAnswer(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            #expect(try await app.request(.get, "/healthz").text == "ok\n")
            #expect(try await TestApp.readiness(of: app) == "ready\n")
        }
    }

    @Test(arguments: Backend.available)
    func metricsCountRequestsByRouteAndStatus(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            try await app.request(.get, "/healthz")
            try await app.request(.get, "/api/user/profile")
            let metrics = try await app.request(.get, "/metrics").text
            #expect(metrics.contains(#"http_requests_total{method="GET",route="/healthz",status="200"} 1"#))
            #expect(metrics.contains(#"http_requests_total{method="GET",route="/api/user/profile",status="401"} 1"#))
            #expect(metrics.contains("http_request_duration_seconds"))
            #expect(metrics.contains(#"fitcircle_db_pool_connections_max{database="\#(backend.rawValue)"}"#))
        }
    }

    @Test(arguments: Backend.available)
    func theRequestIDIsEchoedOrMadeUp(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let given = try await app.request(.get, "/healthz", headers: [HTTPField.Name("X-Request-Id")!: "abc-123"])
            #expect(given.headers[HTTPField.Name("X-Request-Id")!] == "abc-123")
            let hostile = try await app.request(
                .get,
                "/healthz",
                headers: [HTTPField.Name("X-Request-Id")!: "<script>"]
            )
            let madeUp = try #require(hostile.headers[HTTPField.Name("X-Request-Id")!])
            // A random lowercase UUID (version 4), another for each request.
            #expect(UUID(uuidString: madeUp) != nil && madeUp == madeUp.lowercased() && Array(madeUp)[14] == "4")
            let another = try await app.request(.get, "/healthz").headers[HTTPField.Name("X-Request-Id")!]
            #expect(another != nil && another != madeUp)
        }
    }

    @Test(arguments: Backend.available)
    func theContractAndItsReferenceAreServed(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let yaml = try await app.request(.get, "/openapi.yaml")
            #expect(yaml.text.hasPrefix("openapi: 3.1.0"))
            let docs = try await app.request(.get, "/docs")
            #expect(docs.headers[.contentType] == "text/html; charset=utf-8")
            #expect(docs.text.contains("/api/user/profile"))
            #expect(docs.text.contains("signInWithGoogle"))
            // Readable: the descriptions' Markdown rendered (the error table, bold), schemas as tables of
            // their properties with examples, and no script (a policy of the server's own files only).
            #expect(
                docs.text.contains("<strong>Authentication.</strong>")
                    && docs.text.contains("<td><code>/problems/malformed-json</code></td>")
            )
            #expect(docs.text.contains("id=\"schema-FitCircleJoin\"") && docs.text.contains("<code>K7QM2XPA</code>"))
            #expect(
                docs.text.contains(
                    "you get back as <code>Authorization: Bearer &lt;token&gt;</code> on every other call"
                ),
                "a wrapped line is one paragraph"
            )
            // A schema made of others shows what it extends and its own properties; one of several forms lists
            // them (the API review's D9: Workout and EventPropertyValue rendered empty).
            let workout = try #require(docs.text.components(separatedBy: "id=\"schema-Workout\"").last)
                .components(separatedBy: "</article>")[0]
            #expect(
                workout.contains("href=\"#schema-WorkoutInput\"") && workout.contains("<code>caloriesEstimated</code>")
            )
            let value = try #require(docs.text.components(separatedBy: "id=\"schema-EventPropertyValue\"").last)
            #expect(value.components(separatedBy: "</article>")[0].contains("one of: string, integer (int64)"))
            // A list says what bounds it (issue 46): a number, or what it is bounded by.
            let found = try #require(docs.text.components(separatedBy: "id=\"schema-PeopleFound\"").last)
            #expect(found.components(separatedBy: "</article>")[0].contains("at most 20 items"))
            let preferences = try #require(docs.text.components(separatedBy: "id=\"schema-EmailPreferences\"").last)
            #expect(preferences.components(separatedBy: "</article>")[0].contains("bounded by the kinds of email"))
            #expect(!docs.text.contains("<script") && !docs.text.contains("<style"))
            #expect(docs.headers[HTTPField.Name("Content-Security-Policy")!]?.contains("script-src 'self'") == true)
        }
    }
}

extension TestApp {
    /// What `/readyz` answers once the database answers it within its 2 s: a machine running the whole
    /// suite may miss that a few times, which a load balancer's repeated probes would ride out too.
    static func readiness(of app: TestApp) async throws -> String {
        var answer = ""
        for _ in 0..<10 {
            let response = try await app.request(.get, "/readyz")
            answer = response.text
            if response.status == .ok { break }
        }
        return answer
    }
}
