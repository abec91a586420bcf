public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL cluster of one test's own, on loopback, which the test may stop and start again (an outage)
/// without disturbing the tests that share `FITCIRCLE_TEST_DATABASE_URL`. Made with Debian's `initdb` (run
/// as the `postgres` user when the tests run as root); `remove()` stops it and deletes its files.
public final class PrivatePostgres: Sendable {
    public let port: Int
    private let directory: String
    private let binaries: String

    /// Where `initdb` and `pg_ctl` are: `FITCIRCLE_PG_BIN`, or the newest `/usr/lib/postgresql/*/bin`.
    public static var binaries: String? {
        if let configured = ProcessInfo.processInfo.environment["FITCIRCLE_PG_BIN"] { return configured }
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap(Int.init).sorted().reversed()
            .map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }

    public static var isAvailable: Bool { Self.binaries != nil }

    /// The server's address, as `--database-url` takes it.
    public var url: String { "postgres://postgres@127.0.0.1:\(self.port)/postgres?sslmode=disable" }

    private init(port: Int, directory: String, binaries: String) {
        self.port = port
        self.directory = directory
        self.binaries = binaries
    }

    /// Creates and starts a cluster on a free port: drawn below Linux's ephemeral range (32768–60999), where
    /// outgoing connections and the tests' own servers take theirs, and apart from the nodes' (`Server.start`).
    public static func create() async throws -> PrivatePostgres {
        guard let binaries = Self.binaries else {
            throw TestSetupError("no PostgreSQL server binaries (initdb) on this machine")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fitcircle-pg-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if getuid() == 0 { _ = chmod(directory, 0o777) }
        let cluster = PrivatePostgres(port: Int.random(in: 32_000..<32_700), directory: directory, binaries: binaries)
        try await cluster.run("initdb", "-D", "\(directory)/data", "-U", "postgres", "--auth=trust", "-E", "UTF8")
        try await cluster.start()
        return cluster
    }

    public func start() async throws {
        let options =
            "-p \(self.port) -k \(self.directory) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off"
        try await self.run(
            "pg_ctl",
            "-D",
            "\(self.directory)/data",
            "-l",
            "\(self.directory)/server.log",
            "-o",
            options,
            "-w",
            "start"
        )
    }

    /// Stops the server as an operator would (`pg_ctl stop -m fast`: sessions are ended, transactions rolled back).
    public func stop() async throws {
        try await self.run("pg_ctl", "-D", "\(self.directory)/data", "-m", "fast", "-w", "stop")
    }

    /// Stops the server if it runs and deletes the cluster.
    public func remove() async {
        try? await self.run("pg_ctl", "-D", "\(self.directory)/data", "-m", "immediate", "-w", "stop")
        try? FileManager.default.removeItem(atPath: self.directory)
    }

    private func run(_ tool: String, _ arguments: String...) async throws {
        let command = "\(self.binaries)/\(tool)"
        // PostgreSQL refuses to run as root.
        let process =
            getuid() == 0
            ? try ChildProcess("/usr/sbin/runuser", ["-u", "postgres", "--", command] + arguments, errors: .discard)
            : try ChildProcess(command, arguments, errors: .discard)
        let status = try await process.exitStatus()
        guard status == 0 else {
            throw TestSetupError("\(tool) \(arguments.joined(separator: " ")) exited with \(status)")
        }
    }
}
