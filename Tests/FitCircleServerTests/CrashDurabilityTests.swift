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
    static let binary = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/debug/fitcircle")

    /// For the binaries the tests start: a machine running the whole suite can take longer than the default
    /// 5 s to lend a PostgreSQL connection (the outage test sets its own).
    static let patientDatabase = ["FITCIRCLE_DATABASE_CONNECTION_WAIT_SECONDS": "30"]

    /// A running `fitcircle serve`, killed on request.
    struct Server {
        let process: ChildProcess
        let port: Int

        /// Starts a node on a free port. Ports are drawn below Linux's ephemeral range (32768–60999), where
        /// the OS hands out the ports of outgoing connections and of the tests' own servers: a node drawn onto
        /// one of those could not bind, while the test's health check reached whatever held it. A node that
        /// exits at start (another node drew the same port) is started again on another.
        static func start(database: String, environment: [String: String] = [:]) async throws -> Server {
            for _ in 0..<5 {
                let port = Int.random(in: 20_000..<32_000)
                let process = try ChildProcess(
                    CrashDurabilityTests.binary.path,
                    [
                        "serve", "--dev-login", "--port", "\(port)", "--database-url", database,
                        "--profiles-dir", profilesDirectory.path, "--log-level", "warning",
                    ],
                    // Warnings and a crash's last words reach the test's output: a node that dies is to be seen.
                    environment: CrashDurabilityTests.patientDatabase.merging(environment) { $1 },
                    errors: .inherit
                )
                let server = Server(process: process, port: port)
                for _ in 0..<100 where !process.hasExited() {
                    if (try? await server.get("/healthz").0) == 200 {
                        // Answered by this node, not by whatever else may listen there.
                        guard !process.hasExited() else { break }
                        return server
                    }
                    try await Task.sleep(for: .milliseconds(100))
                }
                if process.hasExited() { continue }
                process.signal(SIGTERM)
                process.waitUntilExit()
                throw TestSetupError("fitcircle did not start on port \(port)")
            }
            throw TestSetupError("fitcircle exited at start five times")
        }

        func kill() {
            self.process.signal(SIGKILL)
            self.process.waitUntilExit()
        }

        func get(_ path: String, token: String? = nil) async throws -> (Int, Data) {
            try await self.send(.GET, path, token: token, body: nil)
        }

        /// Opens `path` as a stream of server-sent events and answers the instant each event named `name`
        /// arrives, until the server ends the stream. `ready` hears of the stream's `readyEvent` (or of its
        /// end, if it never came).
        func arrivals(
            of name: String,
            at path: String,
            token: String,
            ready: AsyncStream<Void>.Continuation,
            readyEvent: String = "ready"
        ) async throws -> [ContinuousClock.Instant] {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(self.port)\(path)")
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            var (arrivals, pending, listening) = ([ContinuousClock.Instant](), "", false)
            defer { if !listening { ready.yield() } }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            for try await chunk in response.body {
                pending += String(buffer: chunk)
                while let end = pending.range(of: "\n\n") {
                    let lines = pending[..<end.lowerBound].split(separator: "\n")
                    if lines.contains("event: \(name)") { arrivals.append(.now) }
                    if lines.contains("event: \(readyEvent)") && !listening {
                        listening = true
                        ready.yield()
                    }
                    pending = String(pending[end.upperBound...])
                }
            }
            return arrivals
        }

        func post(_ path: String, token: String? = nil, json: [String: Any], method: HTTPMethod = .POST) async throws
            -> (Int, Data)
        {
            try await self.send(method, path, token: token, body: try JSONSerialization.data(withJSONObject: json))
        }

        func send(
            _ method: HTTPMethod,
            _ path: String,
            token: String?,
            body: Data?,
            contentType: String = "application/json"
        ) async throws -> (Int, Data) {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(self.port)\(path)")
            request.method = method
            if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
            if let body {
                request.headers.add(name: "Content-Type", value: contentType)
                request.body = .bytes(ByteBuffer(bytes: body))
            }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            return (Int(response.status.code), Data(buffer: try await response.body.collect(upTo: 8 << 20)))
        }
    }

    /// The `--database-url` of a test location.
    static func url(of location: DatabaseLocation) -> String {
        switch location {
        case .sqlite(let path): "sqlite://\(path)"
        case .postgres(let target):
            "postgres://\(target.username)@\(target.host):\(target.port)/\(target.database)?sslmode=disable&schema=\(target.schema!)"
        }
    }

    @Test(arguments: Backend.available)
    func anAcknowledgedEventSurvivesKillDashNine(_ backend: Backend) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.binary.path),
            "build the fitcircle product first"
        )
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let database = Self.url(of: location)

        let first = try await Server.start(database: database)
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

        let second = try await Server.start(database: database)
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
            FileManager.default.isExecutableFile(atPath: Self.binary.path),
            "build the fitcircle product first"
        )
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let server = try await Server.start(database: Self.url(of: location))
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
