import FitCircleCore
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// What an attacker or a clumsy client sends: each is refused with a problem naming the field, and the node
/// lives on (a trap in the PostgreSQL driver once took the whole process down for one GET).
struct HostileInputTests {
    @Test(arguments: Backend.available, ["inf|x", "nan|x", "-inf|x", "1e300|x", "-1e300|x", "1e13|x", "0|"])
    func anActivityCursorOutOfRangeIsRefused(_ backend: Backend, cursor: String) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let encoded = Data(cursor.utf8).base64EncodedString()
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let response = try await app.request(.get, "/api/activities?cursor=\(encoded)", token: token)
            #expect(response.status == .unprocessableContent, "\(response.text)")
            #expect(try response.problemType() == "/problems/validation-failed")
            #expect(try (response.jsonObject()["errors"] as? [[String: String]])?.first?["field"] == "cursor")
            #expect(try await app.request(.get, "/api/activities", token: token).status == .ok)
        }
    }

    /// PostgreSQL's text cannot hold NUL: an id or a cursor holding one once failed deep in a query (500).
    @Test(arguments: Backend.available)
    func aNulCharacterInThePathOrTheQueryIsABadRequest(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            for path in ["/api/users/%00", "/api/fitcircles/a%00b", "/api/competitions/%00/leaderboard"] {
                let response = try await app.request(.get, path, token: token)
                #expect(response.status == .badRequest, "\(path): \(response.text)")
                #expect(try response.problemType() == "/problems/bad-request")
            }
            for (path, field) in [("/api/users/search?q=abc%00def", "q"), ("/api/points/ledger?cursor=%00", "cursor")] {
                let response = try await app.request(.get, path, token: token)
                #expect(response.status == .badRequest, "\(path): \(response.text)")
                #expect(try (response.jsonObject()["errors"] as? [[String: String]])?.first?["field"] == field, "\(path): \(response.text)")
            }
            #expect(try await app.request(.get, "/api/users/search?q=abcdef", token: token).status == .ok)
        }
    }

    @Test(arguments: Backend.available)
    func aMegabyteNameThatIsOneCharacterIsRefusedAndChangesNothing(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let before = try await app.request(.get, "/api/user/profile", token: token).text
            for name in ["A" + String(repeating: "\u{301}", count: 1_000_000), "\u{202E}anA", "An\u{0}a"] {
                var form = TestApp.validProfile()
                form["displayName"] = name
                let response = try await app.request(.put, "/api/user/profile", token: token, json: form)
                #expect(response.status == .unprocessableContent)
                #expect(try (response.jsonObject()["errors"] as? [[String: String]])?.map { $0["field"] } == ["displayName"])
            }
            #expect(try await app.request(.get, "/api/user/profile", token: token).text == before)

            var form = TestApp.validProfile()
            form["displayName"] = " Ame\u{301}lie 👩‍💻 "
            #expect(try await app.request(.put, "/api/user/profile", token: token, json: form).status == .ok)
            #expect(try await app.request(.get, "/api/user/profile", token: token).jsonObject()["displayName"] as? String == "Am\u{E9}lie 👩‍💻")
        }
    }

    @Test(arguments: Backend.available)
    func aSuggestedNameIsCutToFitNotTakenWhole(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let response = try await app.request(
                .post, "/api/auth/dev", json: ["email": "zed@example.com", "displayName": "\u{202E}Z" + String(repeating: "\u{301}", count: 20_000)])
            #expect(response.status == .ok)
            let name = try #require((response.jsonObject()["user"] as? [String: Any])?["displayName"] as? String)
            #expect(name.utf8.count <= 200 && !name.unicodeScalars.contains("\u{202E}"))
            let email = try await app.request(.post, "/api/auth/dev", json: ["email": "a\u{202E}@example.com"])
            #expect(email.status == .unprocessableContent)
        }
    }

    @Test(arguments: Backend.available)
    func circleTextIsBoundedInBytes(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let refused = try await app.request(
                .post, "/api/fitcircles", token: token,
                json: ["name": "W" + String(repeating: "\u{308}", count: 300), "description": "x\u{202E}y", "metric": "steps"])
            #expect(refused.status == .unprocessableContent)
            #expect(try (refused.jsonObject()["errors"] as? [[String: String]])?.map { $0["field"] } == ["name", "description"])
            #expect((try await app.request(.get, "/api/fitcircles", token: token).jsonObject()["items"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(arguments: Backend.available)
    func aRouteIsAPolylineOfBoundedSizeKeptOutOfLists(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            func run(_ id: String, route: String) -> [String: Any] {
                [
                    "clientEventId": id, "type": "workout", "occurredAt": ActivityLedgerTests.iso(app.clock.now),
                    "workout": ["type": "running", "durationSeconds": 1800, "distanceMeters": 5000, "route": route],
                ]
            }
            for route in [String(repeating: "?", count: 70_000), "not a polyline", "~~~~~~~~~~~~~~~"] {
                let response = try await app.request(.post, "/api/activities", token: token, json: run("bad", route: route))
                #expect(response.status == .unprocessableContent)
                #expect(try (response.jsonObject()["errors"] as? [[String: String]])?.map { $0["field"] } == ["route"])
            }
            let route = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
            let created = try await app.request(.post, "/api/activities", token: token, json: run("run-1", route: route)).jsonObject()
            let id = try #require(created["id"] as? String)
            let one = try await app.request(.get, "/api/activities/\(id)", token: token).jsonObject()
            #expect((one["workout"] as? [String: Any])?["route"] as? String == route)
            let list = try await app.request(.get, "/api/activities", token: token).jsonObject()
            let listed = try #require((list["items"] as? [[String: Any]])?.first)
            #expect((listed["workout"] as? [String: Any])?["route"] == nil)
            #expect((listed["workout"] as? [String: Any])?["durationSeconds"] as? Double == 1800)
        }
    }
}
