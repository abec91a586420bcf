import FitCircleCore
import FitCircleServer
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Rates per address, per user and per operation answer 429 with `Retry-After` and the draft's
/// `RateLimit-Policy` / `RateLimit`; a full node answers 503 at once and still says it is alive.
struct RequestLimitTests {
    @Test(arguments: Backend.available)
    func signInsFromOneAddressAreLimitedAndComeBackWithTime(_ backend: Backend) async throws {
        try await withTestApp(backend, limits: RequestLimits(signIns: 3)) { app async throws in
            for index in 0..<3 {
                let response = try await app.request(.post, "/api/auth/dev", json: ["email": "u\(index)@example.com"])
                #expect(response.status == .ok)
                #expect(response.headers[HTTPField.Name("RateLimit-Policy")!] == #""sign-in";q=3;w=60"#)
                #expect(
                    response.headers[HTTPField.Name("RateLimit")!]
                        == #""sign-in";r=\#(2 - index);t=\#(20 * (index + 1))"#
                )
            }
            let refused = try await app.request(.post, "/api/auth/dev", json: ["email": "u9@example.com"])
            #expect(refused.status == .tooManyRequests)
            #expect(try refused.problemType() == "/problems/rate-limited")
            #expect(refused.headers[.retryAfter] == "20")
            #expect(refused.headers[HTTPField.Name("RateLimit")!] == #""sign-in";r=0;t=20"#)
            app.clock.advance(by: 20)
            #expect(try await app.request(.post, "/api/auth/dev", json: ["email": "u9@example.com"]).status == .ok)
        }
    }

    @Test(arguments: Backend.available)
    func eachUserHasABudgetOfTheirOwn(_ backend: Backend) async throws {
        try await withTestApp(backend, limits: RequestLimits(perUser: 4)) { app async throws in
            let ana = try await app.onboardedUser("ana@example.com")  // onboarding spends one request
            let bo = try await app.onboardedUser("bo@example.com")
            for _ in 0..<3 { #expect(try await app.request(.get, "/api/user/profile", token: ana).status == .ok) }
            let refused = try await app.request(.get, "/api/user/profile", token: ana)
            #expect(refused.status == .tooManyRequests)
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 > 0)
            #expect(try await app.request(.get, "/api/user/profile", token: bo).status == .ok)
        }
    }

    /// A refusal was counted too, so it says what is left of the budget as a success does: a use case's
    /// 404, a body's 422 and a hot read's 404 (answered before the generated stack).
    @Test(arguments: Backend.available)
    func problemsTheBudgetCountedCarryItsHeaders(_ backend: Backend) async throws {
        try await withTestApp(backend, limits: RequestLimits(perUser: 10)) { app async throws in
            let ana = try await app.onboardedUser("ana@example.com")  // onboarding spends one request
            let missing = try await app.request(.get, "/api/fitcircles/nope", token: ana)
            let invalid = try await app.request(.post, "/api/fitcircles", token: ana, json: ["name": ""])
            let hot = try await app.request(.get, "/api/fitcircles/nope/leaderboard", token: ana)
            for (index, (response, status)) in [(missing, 404), (invalid, 422), (hot, 404)].enumerated() {
                #expect(response.status.code == status)
                #expect(response.headers[HTTPField.Name("RateLimit-Policy")!] == #""user";q=10;w=60"#)
                #expect(response.headers[HTTPField.Name("RateLimit")!]?.hasPrefix(#""user";r=\#(8 - index);"#) == true)
            }
            let signedOut = try await app.request(.get, "/api/fitcircles/nope")
            #expect(signedOut.status == .unauthorized)
            #expect(signedOut.headers[HTTPField.Name("RateLimit")!] == nil)
        }
    }

    @Test(arguments: Backend.available)
    func anAddressOverItsRateIsRefusedButHealthStillAnswers(_ backend: Backend) async throws {
        try await withTestApp(backend, limits: RequestLimits(perAddress: 2)) { app async throws in
            #expect(try await app.request(.get, "/openapi.yaml").status == .ok)
            #expect(try await app.request(.get, "/openapi.yaml").status == .ok)
            let refused = try await app.request(.get, "/openapi.yaml")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[HTTPField.Name("RateLimit-Policy")!] == #""address";q=2;w=60"#)
            #expect(try await app.request(.get, "/healthz").status == .ok)
        }
    }

    @Test(arguments: Backend.available)
    func aFullNodeAnswers503AtOnceAndStillSaysItIsAliveButNotReady(_ backend: Backend) async throws {
        try await withTestApp(backend, limits: RequestLimits(maxInFlight: 0)) { app async throws in
            #expect(try await TestApp.readiness(of: app) == "ready\n", "ready until it turns a request away")
            let refused = try await app.request(.get, "/api/config")
            #expect(refused.status == .serviceUnavailable)
            #expect(try refused.problemType() == "/problems/unavailable")
            #expect(refused.headers[.retryAfter] == "1")
            #expect(try await app.request(.get, "/healthz").status == .ok)
            // Refusing everything, it tells a load balancer to send the traffic elsewhere (issue 41: it said
            // ready while every request got 503).
            let readiness = try await app.request(.get, "/readyz")
            #expect(readiness.status == .serviceUnavailable && readiness.text.contains("capacity"), "\(readiness.text)")
        }
    }

    /// By default the limit adapts: it starts at 32 between 8 and 512 and says so on `/metrics`; equal
    /// bounds hold it fixed.
    @Test(arguments: Backend.available)
    func theLimitInForceIsAMetricAndAdaptsOnlyBetweenDistinctBounds(_ backend: Backend) async throws {
        try await withTestApp(backend, limits: RequestLimits()) { app async throws in
            #expect(try await app.request(.get, "/openapi.yaml").status == .ok)
            let metrics = try await app.request(.get, "/metrics").text
            #expect(metrics.contains("fitcircle_http_in_flight_limit 32"), "\(metrics)")
        }
        try await withTestApp(backend, limits: RequestLimits(maxInFlight: 20, minInFlight: 20)) { app async throws in
            let metrics = try await app.request(.get, "/metrics").text
            #expect(metrics.contains("fitcircle_http_in_flight_limit 20"), "\(metrics)")
        }
    }

    @Test(arguments: Backend.available)
    func behindATrustedProxyEachForwardedClientHasItsOwnBudget(_ backend: Backend) async throws {
        try await withTestApp(backend, limits: RequestLimits(perAddress: 1, trustForwardedFor: true)) {
            app async throws in
            func get(from address: String) async throws -> HTTPResponse.Status {
                try await app.request(
                    .get,
                    "/openapi.yaml",
                    headers: [HTTPField.Name("X-Forwarded-For")!: "203.0.113.9, \(address)"]
                ).status
            }
            #expect(try await get(from: "198.51.100.1") == .ok)
            #expect(try await get(from: "198.51.100.2") == .ok)
            #expect(try await get(from: "198.51.100.1") == .tooManyRequests)
        }
    }

    /// Challenge codes are not to be guessed either: joining a challenge counts against `limits.joins` as
    /// joining a circle does (issue 41: it was not limited at all).
    @Test(arguments: Backend.available)
    func guessingChallengeCodesIsRateLimited(_ backend: Backend) async throws {
        try await withTestApp(backend, limits: RequestLimits(perAddress: 1 << 20, perUser: 1 << 20, joins: 3)) {
            app async throws in
            let guesser = try await app.person("guesser@example.com")
            var statuses: [Int] = []
            for guess in 0..<4 {
                let response = try await app.request(
                    .post,
                    "/api/competitions/019cae6b-6600-7000-8000-00000000000\(guess)/join",
                    token: try await guesser.token(app),
                    json: ["code": "AAAA\(guess)"]
                )
                statuses.append(Int(response.status.code))
            }
            #expect(statuses == [404, 404, 404, 429], "\(statuses)")
        }
    }
}
