import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

/// A backend's own credentials (issue 46): a service key reaches the operator operations of its scopes and
/// nothing else — no person's data, no other scope's operations — and stops at once when revoked; a rotated
/// key's previous secret works for its grace period only.
struct ServiceKeyTests {
    @Test(arguments: Backend.available)
    func aKeyReachesItsScopesOnly(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            let issued = try await app.engine.serviceKeys.make(name: "growth-backend", scopes: [.metrics, .webhooks])
            let key = issued.token
            #expect(key.hasPrefix("fcsk_"))
            let ana = try await app.person("ana@example.com")
            let circle = try await app.request(
                .post,
                "/api/fitcircles",
                token: try await ana.token(app),
                json: ["name": "Walkers", "metric": "steps"]
            ).jsonObject()
            let circleID = try #require(circle["id"] as? String)

            // Its scopes: the figures and the webhooks, with an Idempotency-Key honoured like a person's.
            #expect(try await app.request(.get, "/api/admin/metrics", token: key).status == .ok)
            let webhook: [String: Any] = ["url": "https://hooks.example.com/fitcircle", "events": ["goal_completed"]]
            var headers = HTTPFields()
            headers[HTTPField.Name("Idempotency-Key")!] = "hook-1"
            let made = try await app.request(.post, "/api/admin/webhooks", token: key, json: webhook, headers: headers)
            #expect(made.status == .created, "\(made.text)")
            let again = try await app.request(.post, "/api/admin/webhooks", token: key, json: webhook, headers: headers)
            #expect(again.status == .created && again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(
                try await app.request(.get, "/api/admin/webhooks", token: key).jsonObject()["webhooks"] as? [Any] != nil
            )

            // Another scope's operation: 403 naming the scope it lacks; nothing made.
            let experiment = try await app.request(
                .post,
                "/api/admin/experiments",
                token: key,
                json: ["name": "freeze_policy", "variants": [["name": "a"], ["name": "b"]]]
            )
            #expect(experiment.status == .forbidden && experiment.text.contains("experiments"), "\(experiment.text)")
            // A person's operations, hot reads among them, and another person's data: 403, as no one.
            for path in [
                "/api/user/profile", "/api/streaks/current", "/api/fitcircles/\(circleID)/leaderboard",
                "/api/fitcircles/\(circleID)", "/api/users/\(ana.id)",
            ] {
                let answer = try await app.request(.get, path, token: key)
                #expect(answer.status == .forbidden && answer.text.contains("no person"), "\(path): \(answer.text)")
            }
            let activity: [String: Any] = [
                "clientEventId": "svc-1", "type": "steps", "source": "manual", "steps": 100,
                "occurredAt": ISO8601DateFormatter().string(from: app.clock.now),
            ]
            #expect(try await app.request(.post, "/api/activities", token: key, json: activity).status == .forbidden)

            // A made-up secret, a malformed key and another key's id: 401.
            let token = try #require(ServiceKeyToken(key))
            for forged in [
                ServiceKeyToken(id: token.id, secret: "x" + token.secret.dropFirst()).text, "fcsk_nothing",
                ServiceKeyToken(id: ServiceKey.ID(UUID().uuidString.lowercased()), secret: token.secret).text,
            ] {
                #expect(try await app.request(.get, "/api/admin/metrics", token: forged).status == .unauthorized)
            }

            // A person who is no operator still may not.
            #expect(
                try await app.request(.get, "/api/admin/metrics", token: try await ana.token(app)).status == .forbidden
            )

            // Listed with its last use; revoked, it stops at once.
            let listed = try await app.engine.serviceKeys.list()
            #expect(listed.map(\.name) == ["growth-backend"] && listed.first?.lastUsedAt != nil)
            _ = try await app.engine.serviceKeys.revoke("growth-backend")
            #expect(try await app.request(.get, "/api/admin/metrics", token: key).status == .unauthorized)
        }
    }

    @Test(arguments: Backend.available)
    func aRotatedKeysPreviousSecretWorksForItsGraceOnly(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            let first = try await app.engine.serviceKeys.make(name: "publisher", scopes: [.content])
            let second = try await app.engine.serviceKeys.rotate("publisher", grace: 3600)
            #expect(second.key.id == first.key.id && second.token != first.token)
            func publish(_ token: String, _ week: String) async throws -> HTTPResponse.Status {
                try await app.request(.put, "/api/content/weekly/horoscope:leo/\(week)", token: token).status
            }
            #expect(try await publish(first.token, "2026-W10") == .ok)
            #expect(try await publish(second.token, "2026-W11") == .ok)
            app.clock.advance(by: 3601)
            #expect(try await publish(first.token, "2026-W12") == .unauthorized)
            #expect(try await publish(second.token, "2026-W12") == .ok)

            // A name is one live key's; a revoked key's name may be taken again, and a bad name is refused.
            await #expect(throws: DomainError.self) {
                _ = try await app.engine.serviceKeys.make(name: "publisher", scopes: [.metrics])
            }
            _ = try await app.engine.serviceKeys.revoke(first.key.id.rawValue)
            _ = try await app.engine.serviceKeys.make(name: "publisher", scopes: [.metrics])
            await #expect(throws: ValidationError.self) {
                _ = try await app.engine.serviceKeys.make(name: "bad\u{202E}name", scopes: [.metrics])
            }
            await #expect(throws: DomainError.self) {
                _ = try await app.engine.serviceKeys.revoke(first.key.id.rawValue)
            }
        }
    }
}

/// `fitcircle service-key` against a running server (another process, as an operator runs it): a key made
/// works at once, a rotation without grace ends the old secret, a revocation ends the key, and the list
/// shows every key without a secret.
struct ServiceKeyCommandTests {
    @Test(arguments: Backend.available)
    func keysAreMadeRotatedListedAndRevokedByCommand(_ backend: Backend) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let server = try await ServerProcess.start(database: location.serveURL)
        defer { server.kill() }
        let common = ["--database-url", location.serveURL, "--profiles-dir", profilesDirectory.path]
        func command(_ arguments: [String]) async throws -> String? {
            try await ServerProcess.output(["service-key"] + arguments + common)
        }
        func secret(_ printed: String?) throws -> String {
            try #require(printed?.split(separator: "\n").last { $0.hasPrefix("fcsk_") }.map(String.init))
        }

        let first = try secret(try await command(["make", "reports", "--scopes", "metrics"]))
        #expect(try await server.get("/api/admin/metrics", token: first).0 == 200)
        #expect(try await server.get("/api/admin/webhooks", token: first).0 == 403)
        #expect(try await command(["make", "reports", "--scopes", "metrics"]) == nil)
        #expect(try await command(["make", "other", "--scopes", "metrics,everything"]) == nil)

        let second = try secret(try await command(["rotate", "reports", "--grace-hours", "0"]))
        #expect(try await server.get("/api/admin/metrics", token: first).0 == 401)
        #expect(try await server.get("/api/admin/metrics", token: second).0 == 200)

        let listed = try #require(try await command(["list"]))
        #expect(listed.contains("reports") && listed.contains("metrics") && !listed.contains("fcsk_"), "\(listed)")
        #expect(try await command(["revoke", "reports"]) != nil)
        #expect(try await server.get("/api/admin/metrics", token: second).0 == 401)
        #expect(try await command(["revoke", "reports"]) == nil)
        #expect(try #require(try await command(["list"])).contains("revoked"))
    }
}
