import FitCircleClient
import FitCircleStore
import FitCircleTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real `fitcircle serve` binary, started by a test on a database of its own, killed (SIGKILL) and
/// started again on the same port and database when the test says.
struct LiveServer {
    static let binary = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/debug/fitcircle")

    let process: ChildProcess
    let port: Int
    let database: String
    let environment: [String: String]

    var url: URL { URL(string: "http://127.0.0.1:\(self.port)")! }

    /// Ports are drawn below Linux's ephemeral range (see `CrashDurabilityTests.Server.start`).
    static func start(on location: DatabaseLocation, environment: [String: String] = [:]) async throws -> LiveServer {
        for _ in 0..<5 {
            if let server = try await Self.start(
                database: Self.databaseURL(of: location),
                port: Int.random(in: 20_000..<32_000),
                environment: environment
            ) {
                return server
            }
        }
        throw TestSetupError("fitcircle exited at start five times")
    }

    /// The same node again, after `kill`.
    func restart() async throws -> LiveServer {
        guard let server = try await Self.start(database: self.database, port: self.port, environment: self.environment)
        else {
            throw TestSetupError("fitcircle did not start again on port \(self.port)")
        }
        return server
    }

    func kill() {
        self.process.signal(SIGKILL)
        self.process.waitUntilExit()
    }

    private static func start(database: String, port: Int, environment: [String: String]) async throws -> LiveServer? {
        let process = try ChildProcess(
            Self.binary.path,
            [
                "serve", "--dev-login", "--port", "\(port)", "--database-url", database, "--profiles-dir",
                profilesDirectory.path,
                "--log-level", "error",
            ],
            environment: ["FITCIRCLE_DATABASE_CONNECTION_WAIT_SECONDS": "30"].merging(environment) { $1 },
            errors: .inherit
        )
        let server = LiveServer(process: process, port: port, database: database, environment: environment)
        for _ in 0..<150 where !process.hasExited() {
            if let (_, response) = try? await URLSession.shared.data(
                from: server.url.appendingPathComponent("healthz")
            ),
                (response as? HTTPURLResponse)?.statusCode == 200, !process.hasExited()
            {
                return server
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        if process.hasExited() { return nil }
        server.kill()
        throw TestSetupError("fitcircle did not start on port \(port)")
    }

    static func databaseURL(of location: DatabaseLocation) -> String {
        switch location {
        case .sqlite(let path): "sqlite://\(path)"
        case .postgres(let target):
            "postgres://\(target.username)@\(target.host):\(target.port)/\(target.database)?sslmode=disable&schema=\(target.schema!)"
        }
    }
}

extension FitCircle {
    /// A device of a person who signed in on `server` and finished onboarding, keeping its outbox in a fresh
    /// directory.
    static func device(
        on server: LiveServer,
        email: String,
        storage: URL = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-\(UUID().uuidString)"),
        policy: SyncPolicy = SyncPolicy(),
        refreshMargin: TimeInterval = 60,
        signIn: Bool = true
    ) async throws -> FitCircle {
        let device = try await FitCircle(
            .init(
                baseURL: server.url,
                storageDirectory: storage,
                sessionStore: FileSessionStore(url: storage.appendingPathComponent("session.json")),
                syncPolicy: policy,
                refreshMargin: refreshMargin,
                timeZone: { TimeZone(identifier: "Europe/Paris")! }
            )
        )
        if signIn {
            try await device.signInForDevelopment(email: email)
            _ = try await device.call {
                try await $0.updateProfile(
                    body: .json(
                        .init(
                            displayName: "Ana",
                            age: 34,
                            weight: .init(value: 62, unit: .kg),
                            timeZone: "Europe/Paris"
                        )
                    )
                ).ok
            }
        }
        return device
    }

    /// Every activity the server holds for the person, all pages.
    func allActivities() async throws -> [Components.Schemas.Activity] {
        var (items, cursor) = ([Components.Schemas.Activity](), String?.none)
        repeat {
            let page = try await self.call {
                try await $0.listActivities(query: .init(cursor: cursor, limit: 200)).ok.body.json
            }
            items += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return items
    }
}
