import AsyncHTTPClient
import FitCircleClient
import FitCircleStore
import FitCircleTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// An acknowledged event survives `kill -9` of the server process: the real `fitcircle` binary is started,
/// fed events, killed without warning and started again on the same database.
@Suite(.serialized)
struct CrashDurabilityTests {
    @Test(arguments: Backend.available)
    func anAcknowledgedEventSurvivesKillDashNine(_ backend: Backend) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let database = location.serveURL

        let first = try await ServerProcess.start(database: database)
        let (_, signIn) = try await first.post("/api/auth/dev", json: ["email": "ana@example.com"])
        let token = try signIn.decoded(as: Components.Schemas.AuthSession.self).accessToken
        _ = try await first.post("/api/user/profile", token: token, json: TestApp.validProfile(), method: .PUT)
        let now = ISO8601DateFormatter().string(from: Date())
        var acknowledged = 0
        for index in 0..<40 {
            let event: [String: Any] = ["clientEventId": "e\(index)", "type": "app_open", "occurredAt": now]
            if try await first.post("/api/activities", token: token, json: event).0 == 201 { acknowledged += 1 }
        }
        first.kill()

        let second = try await ServerProcess.start(database: database)
        defer { second.kill() }
        let (status, page) = try await second.get("/api/activities?limit=200", token: token)
        #expect(status == 200)
        let items = try page.decoded(as: Components.Schemas.ActivityPage.self).items
        #expect(acknowledged == 40)
        #expect(items.count == acknowledged)
    }

    /// SIGTERM stops a node cleanly and soon, its job runner, scheduler and listener with it (a service
    /// that returned early, or one that ignored the stop, would fail it or keep it running), and an open
    /// stream of an hour with it: the server waits for open requests, so a stream left open held it.
    @Test(arguments: Backend.available)
    func sigtermStopsTheNodeWithItsServicesAndItsStreams(_ backend: Backend) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let server = try await ServerProcess.start(database: location.serveURL)
        defer { server.kill() }
        let token = try await server.post("/api/auth/dev", json: ["email": "ana@example.com"]).1
            .decoded(as: Components.Schemas.AuthSession.self).accessToken
        #expect(
            try await server.post("/api/user/profile", token: token, json: TestApp.validProfile(), method: .PUT).0
                == 200
        )
        let id = try await server.post("/api/fitcircles", token: token, json: ["name": "Stream", "metric": "steps"]).1
            .decoded(as: Components.Schemas.FitCircle.self).id
        let (listening, ready) = AsyncStream<Void>.makeStream()
        let stream = Task {
            try await server.arrivals(
                of: "rank",
                at: "/api/fitcircles/\(id)/stream?seconds=3600",
                token: token,
                ready: ready
            )
        }
        for await _ in listening { break }
        try await Task.sleep(for: .seconds(2))  // the services are up, and the first jobs and tick have run
        #expect(try await server.get("/readyz").0 == 200)
        server.process.signal(SIGTERM)
        // The exit status, or nil when the node still runs 15 seconds after SIGTERM.
        let status = try await withThrowingTaskGroup(of: Int32?.self) { group in
            group.addTask { try await server.process.exitStatus() }
            group.addTask {
                try await Task.sleep(for: .seconds(15))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        #expect(status == 0, "exit status \(status.map(String.init) ?? "none: still running 15 s after SIGTERM")")
        stream.cancel()
    }
}
