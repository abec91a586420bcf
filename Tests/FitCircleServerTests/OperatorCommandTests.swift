import FitCircleCore
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Operators are made with `fitcircle operator grant|revoke`, not raw SQL, and a revocation holds at once
/// for a server already running — another process, whose cached sessions must not keep the old rights.
struct OperatorCommandTests {
    @Test(arguments: Backend.available)
    func grantAndRevokeTakeEffectOnARunningServer(_ backend: Backend) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let database = location.serveURL
        let server = try await ServerProcess.start(database: database)
        defer { server.kill() }
        func signIn(_ email: String) async throws -> (token: String, id: String) {
            let (_, body) = try await server.post("/api/auth/dev", json: ["email": email])
            let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            return (
                try #require(json["accessToken"] as? String),
                try #require((json["user"] as? [String: Any])?["id"] as? String)
            )
        }
        let ops = try await signIn("ops@example.com")
        let ana = try await signIn("ana@example.com")
        for (token, name) in [(ops.token, "Ops"), (ana.token, "Ana")] {
            let (status, _) = try await server.post(
                "/api/user/profile",
                token: token,
                json: ["displayName": name, "age": 40, "weight": ["value": 70, "unit": "kg"], "timeZone": "UTC"],
                method: .PUT
            )
            #expect(status == 200)
        }
        let send: [String: Any] = ["userId": ana.id, "type": "welcome", "dedupeKey": "by-hand"]

        #expect(try await server.post("/api/notifications/send", token: ops.token, json: send).0 == 403)
        #expect(
            try await ServerProcess.run([
                "operator", "grant", "OPS@example.com", "--database-url", database, "--profiles-dir",
                profilesDirectory.path,
            ])
        )
        #expect(try await server.post("/api/notifications/send", token: ops.token, json: send).0 == 200)
        #expect(
            try await ServerProcess.run([
                "operator", "revoke", "ops@example.com", "--database-url", database, "--profiles-dir",
                profilesDirectory.path,
            ])
        )
        #expect(try await server.post("/api/notifications/send", token: ops.token, json: send).0 == 403)
        #expect(
            try await !ServerProcess.run([
                "operator", "grant", "nobody@example.com", "--database-url", database, "--profiles-dir",
                profilesDirectory.path,
            ])
        )
    }
}
