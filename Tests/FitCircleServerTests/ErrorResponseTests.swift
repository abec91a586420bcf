import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

struct ErrorResponseTests {
    static let jsonOperations: [(HTTPRequest.Method, String)] = [
        (.post, "/api/auth/google"), (.post, "/api/auth/apple"), (.post, "/api/auth/dev"), (.post, "/api/auth/refresh"),
        (.put, "/api/user/profile"),
    ]

    @Test(arguments: Backend.available)
    func malformedJSONIsA400ProblemNeverA500(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.devSignIn().accessToken
            for (method, path) in Self.jsonOperations {
                for body in ["{", "[1,2", "nul", "{\"a\":}", "\u{0}"] {
                    let response = try await app.request(
                        method,
                        path,
                        token: token,
                        body: Data(body.utf8),
                        headers: [.contentType: "application/json"]
                    )
                    #expect(response.status == .badRequest, "\(method) \(path) with \(body)")
                    #expect(try response.problemType() == "/problems/malformed-json")
                }
                let wrongShape = try await app.request(method, path, token: token, json: [1, 2, 3])
                #expect(wrongShape.status.code < 500, "\(method) \(path) with an array")
                #expect(try wrongShape.problemType() != nil)
                let empty = try await app.request(
                    method,
                    path,
                    token: token,
                    headers: [.contentType: "application/json"]
                )
                #expect(empty.status == .badRequest, "\(method) \(path) with no body")
            }
        }
    }

    /// A query parameter's value outside its enum is the query's fault, not a missing body, and the error
    /// names the parameter.
    @Test(arguments: Backend.available)
    func anUnknownEnumValueInTheQueryIsA422NamingTheParameter(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            for (path, field) in [
                ("/api/activities?type=bogus&limit=5", "type"), ("/api/admin/metrics?granularity=year", "granularity"),
            ] {
                let response = try await app.request(.get, path, token: token)
                #expect(response.status == .unprocessableContent, "\(path): \(response.text)")
                #expect(
                    (try response.problem().fields.first) == field,
                    "\(response.text)"
                )
            }
        }
    }

    /// A path parameter's value outside its enum names the parameter, with a body or without (it once
    /// said the body was empty).
    @Test(arguments: Backend.available)
    func anUnknownEnumValueInThePathIsA400NamingTheParameter(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            for body in [nil, Data("{}".utf8)] {
                let response = try await app.request(
                    .post,
                    "/api/notifications/n-1/seen",
                    token: token,
                    body: body,
                    headers: body == nil ? [:] : [.contentType: "application/json"]
                )
                #expect(response.status == .badRequest, "\(response.text)")
                #expect((try response.problem().fields) == ["event"], "\(response.text)")
                #expect(
                    response.text.contains("must be one of ") && response.text.contains("(not 'seen')"),
                    "\(response.text)"
                )
            }
            // A value it takes goes on to the notification, which is not there.
            let known = try await app.request(.post, "/api/notifications/n-1/read", token: token)
            #expect(known.status == .notFound, "\(known.text)")
        }
    }

    /// The API review's D7: a body with several fields of the wrong type is refused naming every one, with
    /// what each must be in the document's words (the decoder stopped at the first and named Swift types).
    @Test(arguments: Backend.available)
    func everyFieldOfTheWrongTypeIsNamedAtOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.devSignIn().accessToken
            let response = try await app.request(
                .put,
                "/api/user/profile",
                token: token,
                json: [
                    "displayName": 5, "age": "old", "weight": ["value": "heavy", "unit": "stone"],
                    "visibility": "everyone",
                ] as [String: Any]
            )
            #expect(response.status == .unprocessableContent, "\(response.text)")
            let problem = try response.problem()
            #expect(
                Set(problem.fields) == ["displayName", "age", "weight.value", "weight.unit", "timeZone", "visibility"],
                "\(response.text)"
            )
            #expect(response.text.contains("must be an integer"), "\(response.text)")
            #expect(response.text.contains("must be one of kg, lb (not 'stone')"), "\(response.text)")
            #expect(!response.text.contains("Swift") && !response.text.contains("Payload"), "\(response.text)")
            // Nothing was saved: the profile is as it was.
            let profile = try await app.request(.get, "/api/user/profile", token: token)
            #expect(!profile.text.contains("heavy"))
            // A query's wrong value is named the same way, with the values it takes.
            let onboarded = try await app.onboardedUser("bo@example.com")
            let query = try await app.request(.get, "/api/activities?limit=many&type=bogus", token: onboarded)
            #expect(query.status == .unprocessableContent, "\(query.text)")
            #expect(Set(try query.problem().fields) == ["limit", "type"], "\(query.text)")
        }
    }

    /// The API review's I41: a member the document does not name was ignored, so a misspelt field looked
    /// accepted and changed nothing. It is refused, named by its path with the fields its object takes, and
    /// nothing changes; a map (an event's properties) still takes any name.
    @Test(arguments: Backend.available)
    func aFieldTheDocumentDoesNotNameIsRefused(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser("ana@example.com")
            let misspelt = try await app.request(
                .put,
                "/api/user/profile",
                token: token,
                json: [
                    "displayName": "Renamed", "age": 30, "weight": ["value": 60, "unit": "kg", "grams": 5],
                    "timezone": "Asia/Tokyo", "timeZone": "UTC",
                ] as [String: Any]
            )
            #expect(misspelt.status == .unprocessableContent, "\(misspelt.text)")
            let problem = try misspelt.problem()
            #expect(problem.fields == ["timezone", "weight.grams"], "\(misspelt.text)")
            #expect(misspelt.text.contains("its fields:") && misspelt.text.contains("timeZone"), "\(misspelt.text)")
            let profile = try await app.request(.get, "/api/user/profile", token: token)
            #expect(try profile.jsonObject()["displayName"] as? String != "Renamed", "\(profile.text)")
            // The review's case: a switch under a name the type's preference does not have.
            let before = try await app.request(.get, "/api/notifications/preferences", token: token)
            let switched = try await app.request(
                .put,
                "/api/notifications/preferences",
                token: token,
                json: ["types": [["type": "streak_reminder", "enabled": false]]]
            )
            #expect(switched.status == .unprocessableContent, "\(switched.text)")
            #expect(try switched.problem().fields == ["types[0].enabled"], "\(switched.text)")
            let after = try await app.request(.get, "/api/notifications/preferences", token: token)
            #expect(after.text == before.text)
            // Unknown members beside wrong values: all are named at once.
            let both = try await app.request(
                .post,
                "/api/streaks/checkin",
                token: token,
                json: ["mood": "great", "energy": 3, "feeling": 3] as [String: Any]
            )
            #expect(Set(try both.problem().fields) == ["mood", "feeling"], "\(both.text)")
        }
    }

    /// The API review's D2: joining a public challenge takes an optional body, yet no body was refused as
    /// broken JSON. An empty body is no body, with a JSON content type or without; a required one is refused.
    @Test(arguments: Backend.available)
    func anOptionalBodyMayBeLeftOut(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.onboardedUser("ana@example.com")
            let created = try await app.request(
                .post,
                "/api/competitions",
                token: ana,
                json: ["name": "Open walk", "type": "distance", "durationDays": 3, "visibility": "public"]
            )
            let id = try #require(try created.jsonObject()["id"] as? String, "\(created.text)")
            let headers: [HTTPFields] = [[:], [.contentType: "application/json"]]
            for (index, headers) in headers.enumerated() {
                let ben = try await app.onboardedUser("ben\(index)@example.com")
                let joined = try await app.request(.post, "/api/competitions/\(id)/join", token: ben, headers: headers)
                #expect(joined.status == .ok, "\(joined.text)")
            }
            let empty = try await app.request(
                .post,
                "/api/fitcircles",
                token: ana,
                headers: [.contentType: "application/json"]
            )
            #expect(empty.status == .badRequest && empty.text.contains("The body is empty"), "\(empty.text)")
        }
    }

    @Test(arguments: Backend.available)
    func anUnknownRouteIsA404Problem(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let response = try await app.request(.get, "/api/nothing-here")
            #expect(response.status == .notFound)
            #expect(try response.problemType() == "/problems/not-found")
        }
    }

    @Test(arguments: Backend.available)
    func anUnsupportedMethodOnAKnownPathIsA405WithAllow(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let response = try await app.request(.delete, "/api/user/profile")
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "GET, PATCH, PUT")
            #expect(try response.problemType() == "/problems/method-not-allowed")
        }
    }

    @Test(arguments: Backend.available)
    func aBodyThatIsNotJSONIsA415(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let response = try await app.request(
                .post,
                "/api/auth/dev",
                body: Data("email=ana@example.com".utf8),
                headers: [.contentType: "application/x-www-form-urlencoded"]
            )
            #expect(response.status == .unsupportedMediaType)
            #expect(try response.problemType() == "/problems/unsupported-media-type")
        }
    }

    @Test(arguments: Backend.available)
    func aBodyOverTheLimitIsA413(_ backend: Backend) async throws {
        try await withTestApp(backend, maxBodyBytes: 1024) { app async throws in
            let response = try await app.request(
                .post,
                "/api/auth/dev",
                json: ["email": String(repeating: "a", count: 2000)]
            )
            #expect(response.status == .contentTooLarge)
            #expect(try response.problemType() == "/problems/payload-too-large")
        }
    }

    @Test(arguments: Backend.available)
    func withoutAValidAccessTokenABodyOver64KBIsRefusedUnread(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            // 100 KB of activities: a signed-in batch of this size is read (and judged on its merits).
            let events = (0..<600).map { index in
                [
                    "clientEventId": "big-\(index)-" + String(repeating: "x", count: 100), "type": "app_open",
                    "occurredAt": "2026-03-02T09:00:00Z",
                ]
            }
            let body = try JSONSerialization.data(withJSONObject: ["events": events])
            #expect(body.count > 64 * 1024)
            let signedIn = try await app.request(
                .post,
                "/api/activities/batch",
                token: token,
                body: body,
                headers: [.contentType: "application/json"]
            )
            #expect(signedIn.status != .contentTooLarge, "\(signedIn.text.prefix(200))")
            for header in [nil, "Bearer not-a-token", "Basic YTpi"] {
                var headers: HTTPFields = [.contentType: "application/json"]
                if let header { headers[.authorization] = header }
                let refused = try await app.request(.post, "/api/activities/batch", body: body, headers: headers)
                #expect(refused.status == .contentTooLarge, "\(header ?? "no token")")
                #expect(try refused.problemType() == "/problems/payload-too-large")
                #expect(refused.text.contains("Without a valid access token"))
            }
            // Small public requests are as ever.
            #expect(try await app.request(.post, "/api/auth/dev", json: ["email": "ben@example.com"]).status == .ok)
        }
    }
}
