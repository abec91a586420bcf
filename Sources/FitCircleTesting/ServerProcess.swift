import AsyncHTTPClient
import FitCircleClient
public import FitCircleStore
public import Foundation
import NIOCore
import NIOFoundationCompat
public import NIOHTTP1

/// A real `fitcircle serve` process, started by a test on a database of its own and killed (SIGKILL) when the
/// test says: for what only another process shows (a crash, a second node, an outage, slow sockets).
public struct ServerProcess: Sendable {
    /// The debug binary `swift build` leaves in `.build`.
    public static let binary = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/debug/fitcircle")

    /// For the binaries the tests start: a machine running the whole suite can take longer than the default
    /// 5 s to lend a PostgreSQL connection (the outage test sets its own), and its latency swings with the
    /// suite beside it, which the adaptive limit on requests in flight would take for the node's own queueing:
    /// these nodes never go below 64 (no test sends that many at once; overload is `RequestLimitTests`' and
    /// `scripts/bench-overload.sh`'s).
    public static let patientNode = [
        "FITCIRCLE_DATABASE_CONNECTION_WAIT_SECONDS": "30", "FITCIRCLE_LIMITS_MIN_IN_FLIGHT": "64",
    ]

    /// How soon another node must have heard of a change. A NOTIFY arrives within a second on a quiet machine;
    /// with the whole suite running beside it, it took up to 1.8 s. Three seconds still tells NOTIFY from the
    /// look-ups without it (every 30 s) and from missing it altogether.
    public static let notifyBound = Duration.seconds(3)

    public let process: ChildProcess
    public let port: Int
    /// Its `--database-url`.
    public let database: String
    public let environment: [String: String]

    public var url: URL { URL(string: "http://127.0.0.1:\(self.port)")! }

    /// Starts a node on a free port. Ports are drawn below Linux's ephemeral range (32768–60999), where the OS
    /// hands out the ports of outgoing connections and of the tests' own servers: a node drawn onto one of
    /// those could not bind, while the test's health check reached whatever held it. A node that exits at
    /// start (another node drew the same port) is started again on another.
    public static func start(database: String, environment: [String: String] = [:]) async throws -> ServerProcess {
        for _ in 0..<5 {
            let port = Int.random(in: 20_000..<32_000)
            if let server = try await Self.start(database: database, port: port, environment: environment) {
                return server
            }
        }
        throw TestSetupError("fitcircle exited at start five times")
    }

    /// Starts a node on `location`.
    public static func start(on location: DatabaseLocation, environment: [String: String] = [:]) async throws
        -> ServerProcess
    {
        try await Self.start(database: location.serveURL, environment: environment)
    }

    /// The same node again (its port, database and environment), after `kill`.
    public func restart() async throws -> ServerProcess {
        guard
            let server = try await Self.start(database: self.database, port: self.port, environment: self.environment)
        else {
            throw TestSetupError("fitcircle did not start again on port \(self.port)")
        }
        return server
    }

    /// Runs `fitcircle <arguments>` to its end (a command such as `operator grant`); whether it succeeded.
    public static func run(_ arguments: [String]) async throws -> Bool {
        try await ChildProcess(Self.binary.path, arguments, environment: Self.patientNode, errors: .discard)
            .exitStatus() == 0
    }

    /// Runs `fitcircle <arguments>` to its end: what it printed, or nil when it failed. (Read once it has
    /// ended: a command prints a few lines, far less than a pipe holds.)
    public static func output(_ arguments: [String]) async throws -> String? {
        let process = try ChildProcess(
            Self.binary.path,
            arguments,
            environment: Self.patientNode,
            output: .pipe,
            errors: .discard
        )
        let status = try await process.exitStatus()
        let printed = try process.output?.readToEnd() ?? Data()
        return status == 0 ? String(decoding: printed, as: UTF8.self) : nil
    }

    /// The node on `port`, or nil if it exited at start.
    private static func start(database: String, port: Int, environment: [String: String]) async throws
        -> ServerProcess?
    {
        guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
            throw TestSetupError("build the fitcircle product first (\(Self.binary.path))")
        }
        let process = try ChildProcess(
            Self.binary.path,
            [
                "serve", "--dev-login", "--port", "\(port)", "--database-url", database,
                "--profiles-dir", profilesDirectory.path, "--log-level", "warning",
            ],
            // Warnings and a crash's last words reach the test's output: a node that dies is to be seen.
            environment: Self.patientNode.merging(environment) { $1 },
            errors: .inherit
        )
        let server = ServerProcess(process: process, port: port, database: database, environment: environment)
        for _ in 0..<150 where !process.hasExited() {
            if (try? await server.get("/healthz").0) == 200 {
                // Answered by this node, not by whatever else may listen there.
                guard !process.hasExited() else { break }
                return server
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        if process.hasExited() { return nil }
        server.kill()
        throw TestSetupError("fitcircle did not start on port \(port)")
    }

    public func kill() {
        self.process.signal(SIGKILL)
        self.process.waitUntilExit()
    }

    public func get(_ path: String, token: String? = nil) async throws -> (Int, Data) {
        try await self.send(.GET, path, token: token, body: nil)
    }

    public func post(_ path: String, token: String? = nil, json: [String: Any], method: HTTPMethod = .POST)
        async throws -> (Int, Data)
    {
        try await self.send(method, path, token: token, body: try JSONSerialization.data(withJSONObject: json))
    }

    public func send(
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

    /// Signs `email` in on this node and completes onboarding; answers the token and the user id.
    public func member(_ email: String, timeZone: String = "Europe/Paris") async throws -> (token: String, id: String) {
        let signIn = try await self.post("/api/auth/dev", json: ["email": email]).1
            .decoded(as: Components.Schemas.AuthSession.self)
        let (status, answer) = try await self.post(
            "/api/user/profile",
            token: signIn.accessToken,
            json: TestApp.validProfile(timeZone: timeZone),
            method: .PUT
        )
        guard status == 200 else {
            throw TestSetupError("onboarding answered \(status): \(String(decoding: answer, as: UTF8.self))")
        }
        return (signIn.accessToken, signIn.user.id)
    }

    /// What answered a read of the circle's weekly board on this node: its `index` or the `database`.
    public func boardSource(_ circle: String, token: String) async throws -> String? {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(self.port)/api/fitcircles/\(circle)/leaderboard")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        return try await HTTPClient.shared.execute(request, timeout: .seconds(10)).headers.first(
            name: "FitCircle-Board-Source"
        )
    }

    /// Opens `path` as a stream of server-sent events and answers the instant each event named `name` arrives,
    /// until the server ends the stream. `ready` hears of the stream's `readyEvent` (or of its end, if it never
    /// came).
    public func arrivals(
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

    /// Runs `body` with two nodes on one fresh schema of `backend` (and its `--database-url`).
    public static func withTwoNodes(
        _ backend: Backend,
        environment: [String: String] = [:],
        _ body: (ServerProcess, ServerProcess, _ database: String) async throws -> Void
    ) async throws {
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let nodeA = try await Self.start(on: location, environment: environment)
        defer { nodeA.kill() }
        let nodeB = try await Self.start(on: location, environment: environment)
        defer { nodeB.kill() }
        try await body(nodeA, nodeB, location.serveURL)
    }
}

extension DatabaseLocation {
    /// The `--database-url` that points `fitcircle serve` here.
    public var serveURL: String {
        switch self {
        case .sqlite(let path): "sqlite://\(path)"
        case .postgres(let target):
            "postgres://\(target.username)@\(target.host):\(target.port)/\(target.database)?sslmode=disable&schema=\(target.schema ?? "public")"
        }
    }
}
