// Events ingested per second through the HTTP API, single and batched, next to a baseline measured in the
// same run: the same rows INSERTed through the same driver with no HTTP, validation or derived state.
// Run with scripts/bench-ingest.sh, which builds this in release mode and adds pgbench for PostgreSQL.
import AsyncHTTPClient
import FitCircleCore
import FitCircleEngine
import FitCircleServer
import FitCircleStore
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1

let arguments = CommandLine.arguments
let databaseURL =
    arguments.count > 1 && !arguments[1].isEmpty
    ? arguments[1]
    : "sqlite://" + FileManager.default.temporaryDirectory.appendingPathComponent("ingest-bench-\(UUID()).sqlite").path
let concurrency = arguments.count > 2 ? Int(arguments[2]) ?? 8 : 8
let singleEvents = arguments.count > 3 ? Int(arguments[3]) ?? 4000 : 4000
let batchedEvents = singleEvents * 5
let batchSize = 100
let users = 64
/// `overload`: requests at a fixed rate, at the sustainable one and at twice it (Overload.swift).
let overloadMode = arguments.count > 4 && arguments[4] == "overload"
/// The tighter fixed limit the overload run tries beside the default (adaptive) and the default maximum fixed.
let tightInFlight = arguments.count > 5 ? Int(arguments[5]) ?? 64 : 64

var logger = Logger(label: "bench")
logger.logLevel = .warning
let clock = WallClock.system
let location = try DatabaseLocation(url: databaseURL)
let store = try await Store.open(location, logger: logger)
let profilesDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
    "profiles"
)

/// A distinct steps event; the same shape for the API and the baseline. Events spread over the last four
/// weeks, so a user's day holds a few of them, as in real use.
func stepsEvent(_ index: Int, run: String) -> (json: [String: Any], occurredAt: Date) {
    let occurredAt = Date().addingTimeInterval(-Double(index % (28 * 24)) * 3600 - 60)
    return (
        [
            "clientEventId": "\(run)-\(index)", "type": "steps", "steps": 1000 + index % 5000,
            "occurredAt": occurredAt.formatted(.iso8601), "source": "manual", "timeZone": "Europe/Paris",
        ], occurredAt
    )
}

func measure(_ label: String, events: Int, _ body: @Sendable () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = Double(events) / seconds
    print(
        "\(label.padding(toLength: 48, withPad: " ", startingAt: 0)) \(String(format: "%7d events in %6.2f s = %7.0f events/s", events, seconds, rate))"
    )
    return rate
}

/// Runs `count` jobs on `concurrency` workers.
func concurrently(_ count: Int, _ job: @escaping @Sendable (Int) async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        let next = ManagedAtomicCounter()
        for _ in 0..<concurrency {
            group.addTask {
                while true {
                    let index = next.increment()
                    guard index < count else { return }
                    try await job(index)
                }
            }
        }
        try await group.waitForAll()
    }
}

final class ManagedAtomicCounter: @unchecked Sendable {
    // One lock-protected integer; the benchmark's workers share it.
    private let lock = NSLock()
    private var value = -1
    func increment() -> Int {
        self.lock.lock()
        defer { self.lock.unlock() }
        self.value += 1
        return self.value
    }
}

try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { await store.run() }
    try await store.migrate(now: clock.now())
    // The engine as `serve` assembles it, with dev login on.
    let engine = try await FitCircleNode(
        configuration: FitCircleConfiguration(
            [
                "devLogin": .bool(true), "profiles.directory": .string(profilesDirectory.path),
                "blobs.directory": .string(
                    FileManager.default.temporaryDirectory.appendingPathComponent("bench-blobs").path
                ),
            ],
            workingDirectory: FileManager.default.temporaryDirectory
        ),
        store: store,
        clock: clock
    ).engine
    let router = try buildRouter(engine: engine, store: store, limits: .generous, clock: .system)
    // As `serve` does: on PostgreSQL the node authenticates from memory only while it hears the others.
    group.addTask { await engine.listen(to: store, logger: logger) }
    let port = 18_000 + Int.random(in: 0..<1000)
    let app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: port)),
        logger: logger
    )
    group.addTask { try await app.runService(gracefulShutdownSignals: []) }
    try await Task.sleep(for: .milliseconds(500))

    // Open-loop load needs a connection per request in flight, or the client would queue what the server should see.
    let connections = overloadMode ? 2048 : concurrency
    let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: .init(
            connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        )
    )
    @Sendable func post(_ path: String, token: String? = nil, json object: Any) async throws -> (Int, Data) {
        try await post(path, token: token, body: try JSONSerialization.data(withJSONObject: object))
    }
    @Sendable func post(_ path: String, token: String?, body: Data, port: Int = port) async throws -> (Int, Data) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 24)
        return (Int(response.status.code), Data(buffer: body))
    }

    // Users who completed onboarding; events are spread over them as in real use.
    var tokens: [String] = []
    var userIDs: [User.ID] = []
    for index in 0..<users {
        let (_, data) = try await post("/api/auth/dev", json: ["email": "bench\(index)@example.com"])
        let session = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let token = session["accessToken"] as! String
        tokens.append(token)
        userIDs.append(User.ID((session["user"] as! [String: Any])["id"] as! String))
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/user/profile")
        request.method = .PUT
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.body = .bytes(
            ByteBuffer(
                bytes: try JSONSerialization.data(withJSONObject: [
                    "displayName": "Bench", "age": 30, "weight": ["value": 70, "unit": "kg"],
                    "timeZone": "Europe/Paris",
                ])
            )
        )
        _ = try await client.execute(request, timeout: .seconds(10))
    }
    let frozenTokens = tokens
    let frozenUsers = userIDs
    print("database: \(location), concurrency \(concurrency)")

    if overloadMode {
        // The peak, closed loop; the sustainable rate is taken as half of it: the open-loop client shares the
        // two cores with the server, and at 70% queues already grew (p99 near 300 ms on SQLite).
        let peak = try await measure("API: POST /api/activities, closed loop", events: singleEvents) {
            try await concurrently(singleEvents) { index in
                let body = try JSONSerialization.data(withJSONObject: stepsEvent(index, run: "peak").json)
                let (status, _) = try await post("/api/activities", token: frozenTokens[index % users], body: body)
                precondition(status == 201, "POST /api/activities answered \(status)")
            }
        }
        let sustainable = peak * 0.5
        // Three nodes on the same engine and database: the default limits (adaptive, between
        // `limits.minInFlight` and `limits.maxInFlight`), the default maximum held fixed (as before the
        // limit adapted), and a tighter fixed limit.
        let nodeLogger = logger
        func node(_ port: Int, minInFlight: Int, maxInFlight: Int) throws -> Application<
            HotRouting<AppRequestContext>.Responder
        > {
            var limits = RequestLimits.generous
            limits.maxInFlight = maxInFlight
            limits.minInFlight = minInFlight
            return Application(
                router: try buildRouter(engine: engine, store: store, limits: limits, clock: .system),
                configuration: .init(address: .hostname("127.0.0.1", port: port)),
                logger: nodeLogger
            )
        }
        let defaults = RequestLimits.default
        let adaptivePort = port + 2000
        let fixedPort = port + 3000
        let tightPort = port + 1000
        for app in [
            try node(adaptivePort, minInFlight: defaults.minInFlight, maxInFlight: defaults.maxInFlight),
            try node(fixedPort, minInFlight: defaults.maxInFlight, maxInFlight: defaults.maxInFlight),
            try node(tightPort, minInFlight: tightInFlight, maxInFlight: tightInFlight),
        ] {
            group.addTask { try await app.runService(gracefulShutdownSignals: []) }
        }
        try await Task.sleep(for: .milliseconds(500))

        /// The adaptive node's limit as `/metrics` reports it.
        @Sendable func currentLimit() async -> Int? {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(adaptivePort)/metrics")
            request.method = .GET
            guard let response = try? await client.execute(request, timeout: .seconds(5)),
                let body = try? await response.body.collect(upTo: 1 << 22)
            else { return nil }
            let line = String(buffer: body).split(separator: "\n").first {
                $0.hasPrefix("fitcircle_http_in_flight_limit ")
            }
            return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }.map { Int($0) }
        }
        func phase(_ label: String, rate: Double, port: Int, run: String, drain: Bool = true) async -> OfferedLoad {
            // The adaptive node's limit, every half second of the phase.
            let timeline = Task {
                var limits: [Int] = []
                while !Task.isCancelled {
                    if let limit = await currentLimit() { limits.append(limit) }
                    try? await Task.sleep(for: .milliseconds(500))
                }
                return limits
            }
            let load = await offer(rate: rate, seconds: 10) { index in
                guard let body = try? JSONSerialization.data(withJSONObject: stepsEvent(index, run: run).json) else {
                    return nil
                }
                return try? await post("/api/activities", token: frozenTokens[index % users], body: body, port: port).0
            }
            timeline.cancel()
            let limits = await timeline.value
            print(
                "\(label.padding(toLength: 52, withPad: " ", startingAt: 0)) \(String(format: "%5.0f/s", rate)): \(load.summary), goodput \(String(format: "%.2f", Double(load.admitted) / 10 / peak)) of the peak"
            )
            if port == adaptivePort {
                print("    adaptive limit every 0.5 s: \(limits.map(String.init).joined(separator: " "))")
            }
            if drain { try? await Task.sleep(for: .seconds(3)) }  // the backlog drains before the next phase
            return load
        }
        let calm = await phase("sustainable, adaptive (default)", rate: sustainable, port: adaptivePort, run: "calm")
        let flooded = await phase(
            "2 × sustainable, adaptive (default)",
            rate: 2 * sustainable,
            port: adaptivePort,
            run: "flood",
            drain: false
        )
        // Load drops back at once: how soon the adaptive node serves as usual again.
        let after = await phase(
            "sustainable again, adaptive (default)",
            rate: sustainable,
            port: adaptivePort,
            run: "after"
        )
        let fixed = await phase(
            "2 × sustainable, fixed at maxInFlight \(defaults.maxInFlight)",
            rate: 2 * sustainable,
            port: fixedPort,
            run: "fixed"
        )
        let shed = await phase(
            "2 × sustainable, fixed at \(tightInFlight)",
            rate: 2 * sustainable,
            port: tightPort,
            run: "shed"
        )
        let calmP99 = calm.percentile(0.99)
        print(
            String(
                format:
                    "p99 admitted / sustainable p99: %.1f at 2× adaptive, %.1f right after, %.1f fixed at %d, %.1f fixed at %d",
                flooded.percentile(0.99) / calmP99,
                after.percentile(0.99) / calmP99,
                fixed.percentile(0.99) / calmP99,
                defaults.maxInFlight,
                shed.percentile(0.99) / calmP99,
                tightInFlight
            )
        )
        try await client.shutdown()
        group.cancelAll()
        return
    }

    let baselineSingle = try await measure("baseline: 1 INSERT per transaction", events: singleEvents) {
        try await concurrently(singleEvents) { index in
            let event = stepsEvent(index, run: "base1")
            let row = ActivityEvent(
                id: .init(UUID().uuidString),
                userID: frozenUsers[index % users],
                clientEventID: event.json["clientEventId"] as! String,
                occurredAt: event.occurredAt,
                timeZone: "Europe/Paris",
                localDate: LocalDate(event.occurredAt, in: TimeZone(identifier: "Europe/Paris")!),
                source: .manual,
                receivedAt: Date(),
                payload: .steps(.init(steps: 1000))
            )
            _ = try await store.transaction { try await $0.activities.insert([row]) }
        }
    }
    let apiSingle = try await measure("API: POST /api/activities", events: singleEvents) {
        try await concurrently(singleEvents) { index in
            let body = try JSONSerialization.data(withJSONObject: stepsEvent(index, run: "api1").json)
            let (status, _) = try await post("/api/activities", token: frozenTokens[index % users], body: body)
            precondition(status == 201, "POST /api/activities answered \(status)")
        }
    }
    @Sendable func baselineRows(_ batch: Int, run: String) -> [ActivityEvent] {
        let user = frozenUsers[batch % users]
        return (0..<batchSize).map { offset -> ActivityEvent in
            let event = stepsEvent(batch * batchSize + offset, run: run)
            return ActivityEvent(
                id: .init(UUID().uuidString),
                userID: user,
                clientEventID: event.json["clientEventId"] as! String,
                occurredAt: event.occurredAt,
                timeZone: "Europe/Paris",
                localDate: LocalDate(event.occurredAt, in: TimeZone(identifier: "Europe/Paris")!),
                source: .manual,
                receivedAt: Date(),
                payload: .steps(.init(steps: 1000))
            )
        }
    }
    // Two baselines for batches: one INSERT statement per row, and the stronger one the API is held to,
    // all rows in one multi-row INSERT (as the API writes them).
    let baselineRowByRow = try await measure(
        "baseline: \(batchSize) one-row INSERTs per transaction",
        events: batchedEvents
    ) {
        try await concurrently(batchedEvents / batchSize) { batch in
            let rows = baselineRows(batch, run: "base2")
            _ = try await store.transaction { tx in
                for row in rows { _ = try await tx.activities.insert([row]) }
            }
        }
    }
    let baselineBatched = try await measure(
        "baseline: one \(batchSize)-row INSERT per transaction",
        events: batchedEvents
    ) {
        try await concurrently(batchedEvents / batchSize) { batch in
            let rows = baselineRows(batch, run: "base3")
            _ = try await store.transaction { tx in try await tx.activities.insert(rows) }
        }
    }
    let apiBatched = try await measure("API: POST /api/activities/batch (\(batchSize) each)", events: batchedEvents) {
        try await concurrently(batchedEvents / batchSize) { batch in
            let events = (0..<batchSize).map { stepsEvent(batch * batchSize + $0, run: "api2").json }
            let body = try JSONSerialization.data(withJSONObject: ["events": events])
            let (status, _) = try await post("/api/activities/batch", token: frozenTokens[batch % users], body: body)
            precondition(status == 200, "POST /api/activities/batch answered \(status)")
        }
    }
    // Where the time of a request goes: the HTTP stack alone, and authentication with one read.
    @Sendable func get(_ path: String, token: String?) async throws -> Int {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let response = try await client.execute(request, timeout: .seconds(60))
        _ = try await response.body.collect(upTo: 1 << 24)
        return Int(response.status.code)
    }
    _ = try await measure("reference: GET /healthz", events: singleEvents) {
        try await concurrently(singleEvents) { _ in
            let status = try await get("/healthz", token: nil)
            precondition(status == 200)
        }
    }
    _ = try await measure("reference: GET /api/user/profile", events: singleEvents) {
        try await concurrently(singleEvents) { index in
            let status = try await get("/api/user/profile", token: frozenTokens[index % users])
            precondition(status == 200)
        }
    }
    print(String(format: "ratio single  (API / baseline): %.2f", apiSingle / baselineSingle))
    print(String(format: "ratio batched (API / one-row INSERTs): %.2f", apiBatched / baselineRowByRow))
    print(String(format: "ratio batched (API / multi-row INSERT): %.2f", apiBatched / baselineBatched))
    try await client.shutdown()
    group.cancelAll()
}
if case .sqlite(let path) = location {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
