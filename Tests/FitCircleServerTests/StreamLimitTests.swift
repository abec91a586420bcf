import FitCircleServer
import FitCircleTesting
import Foundation
import Testing

/// Event streams hold a connection for up to an hour: they are capped per user and per node, and end with
/// their session.
struct StreamLimitTests {
    @Test(arguments: Backend.available)
    func signingOutEndsTheSessionsOpenStreams(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let circle = try await app.request(.post, "/api/fitcircles", token: token, json: ["name": "Morning crew", "metric": "steps", "privacy": "private"]).jsonObject()
            let circleID = try #require(circle["id"] as? String)
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: (String, Int).self) { group in
                for path in ["/api/notifications/stream?seconds=30", "/api/fitcircles/\(circleID)/stream?seconds=30"] {
                    group.addTask { (path, Int(try await app.request(.get, path, token: token).status.code)) }
                }
                try await Task.sleep(for: .milliseconds(300))
                #expect(try await app.request(.post, "/api/auth/signout", token: token).status == .noContent)
                for try await (path, status) in group {
                    #expect(status == 200, "\(path)")
                }
            }
            // Asked for 30 s; ended by the sign-out, which the streams check every 2 s.
            #expect(ContinuousClock.now - started < .seconds(20))
        }
    }

    @Test(arguments: Backend.available)
    func aUserMayKeepOnlySoManyStreamsOpen(_ backend: Backend) async throws {
        var limits = RequestLimits.generous
        limits.streamsPerUser = 2
        try await withTestApp(backend, limits: limits) { app async throws in
            let ana = try await app.onboardedUser()
            let ben = try await app.onboardedUser("ben@example.com")
            // Three of Ana's and one of Ben's at once, each open for 3 s: one of Ana's is refused.
            let answers = try await withThrowingTaskGroup(of: (String, Int, String?, String?).self) { group in
                for (who, token) in [("ana", ana), ("ana", ana), ("ana", ana), ("ben", ben)] {
                    group.addTask {
                        let response = try await app.request(.get, "/api/notifications/stream?seconds=3", token: token)
                        return (who, Int(response.status.code), try response.problemType(), response.headers[.retryAfter])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.0 == "ana" }.map(\.1).sorted() == [200, 200, 429])
            #expect(answers.filter { $0.0 == "ben" }.map(\.1) == [200], "another person's streams are not Ana's")
            let refused = try #require(answers.first { $0.1 == 429 })
            #expect(refused.2 == "/problems/rate-limited")
            #expect(refused.3 != nil, "Retry-After")
            // The two ended: their places are free again.
            #expect(try await app.request(.get, "/api/notifications/stream?seconds=1", token: ana).status == .ok)
        }
    }
}
