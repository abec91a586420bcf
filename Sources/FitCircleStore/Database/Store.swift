import FitCircleCore
import Foundation
public import Logging
import NIOCore
import NIOSSL
import PostgresKit
import PostgresNIO
import SQLKit
import SQLiteKit
import SQLiteNIO
import Synchronization

/// Persistent state on SQLite or PostgreSQL, with SQL written once. Every use case runs in one `transaction`.
public final class Store: Sendable {
    /// Which database this store talks to, for the few statements that differ.
    public enum Dialect: String, Sendable {
        case sqlite, postgres
    }

    public let dialect: Dialect
    public let location: DatabaseLocation
    let backend: Backend
    let statistics = TransactionStatistics()
    let cache: StoreCache
    /// Where this store's nodes talk to each other (`listen`, `Transaction.notify`).
    let eventChannel: String
    let deadlines: Deadlines
    /// Whether PostgreSQL answered lately, which decides how long a lease waits (see `lease`).
    let reachability = Reachability()

    /// How long a transaction waits for a PostgreSQL connection, and a statement for its answer, before it
    /// fails as `StoreError.unavailable` (503): while the database is down, requests fail fast instead of
    /// queueing until it is back. SQLite's own wait for a lock is its busy timeout (5 s).
    public struct Deadlines: Sendable {
        public var connection: Duration
        /// `nil`: a statement may run as long as it takes (a dead connection still fails it within a second).
        public var statement: Duration?

        public init(connection: Duration = .seconds(5), statement: Duration? = .seconds(60)) {
            self.connection = connection
            self.statement = statement
        }
    }

    enum Backend: Sendable {
        /// One writer, whose transactions take turns (a pool of one), and a few readers that WAL lets run beside it.
        case sqlite(writer: ConnectionPool<SQLiteConnection>, readers: ConnectionPool<SQLiteConnection>)
        case postgres(PostgresClient, maximumConnections: Int)
    }

    /// Read-only SQLite connections: reads (authentication, listings) never wait for the writer.
    static let sqliteReaders = 4

    /// SQLite durability: `normal` survives a process crash (WAL), `full` also a power loss at ~100× the cost.
    public enum SQLiteSynchronous: String, Sendable {
        case normal = "NORMAL"
        case full = "FULL"
    }

    private init(dialect: Dialect, location: DatabaseLocation, backend: Backend, deadlines: Deadlines) {
        self.dialect = dialect
        self.location = location
        self.backend = backend
        self.deadlines = deadlines
        // One process on SQLite sees every change; PostgreSQL nodes must hear each other first (`listen`).
        self.cache = StoreCache(serving: dialect == .sqlite)
        self.eventChannel = Self.channel(of: location)
    }

    /// Opens the database; call `run()` next (PostgreSQL's pool lives there) and `migrate()` before use.
    public static func open(
        _ location: DatabaseLocation,
        sqliteSynchronous: SQLiteSynchronous = .normal,
        maximumConnections: Int = 20,
        deadlines: Deadlines = Deadlines(),
        logger: Logger
    ) async throws -> Store {
        switch location {
        case .sqlite(let path):
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let writer = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
            // The PocketBase way: WAL lets readers run beside the one writer; NORMAL syncs at checkpoints,
            // so a committed transaction survives a process crash; busy_timeout waits for other processes.
            for pragma in [
                "PRAGMA journal_mode = WAL", "PRAGMA synchronous = \(sqliteSynchronous.rawValue)",
                "PRAGMA busy_timeout = 5000", "PRAGMA foreign_keys = ON",
            ] {
                _ = try await writer.query(pragma)
            }
            var readers: [SQLiteConnection] = []
            for _ in 0..<Self.sqliteReaders {
                let reader = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
                for pragma in ["PRAGMA busy_timeout = 5000", "PRAGMA query_only = ON"] {
                    _ = try await reader.query(pragma)
                }
                readers.append(reader)
            }
            return Store(
                dialect: .sqlite,
                location: location,
                backend: .sqlite(writer: ConnectionPool([writer]), readers: ConnectionPool(readers)),
                deadlines: deadlines
            )
        case .postgres(let target):
            let tls: PostgresClient.Configuration.TLS =
                switch target.tls {
                case .disable: .disable
                case .prefer: .prefer(.makeClientConfiguration())
                case .require: .require(.makeClientConfiguration())
                }
            var configuration = PostgresClient.Configuration(
                host: target.host,
                port: target.port,
                username: target.username,
                password: target.password,
                database: target.database,
                tls: tls
            )
            configuration.options.maximumConnections = maximumConnections
            if let schema = target.schema {
                // A startup parameter sets the search path on every pooled connection, before any query.
                configuration.options.additionalStartupParameters = [("search_path", schema)]
            }
            let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            return Store(
                dialect: .postgres,
                location: location,
                backend: .postgres(client, maximumConnections: maximumConnections),
                deadlines: deadlines
            )
        }
    }

    /// Keeps the database connections alive until the task is cancelled, then closes them.
    public func run() async {
        switch self.backend {
        case .postgres(let client, _):
            await client.run()
        case .sqlite(let writer, let readers):
            // Sleep until cancellation: graceful shutdown cancels this task once requests have finished.
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(3600))
            }
            // The future-based close: the async one refuses to run in a cancelled task, which this is.
            for connection in writer.all + readers.all {
                let closed: EventLoopFuture<Void> = connection.close()
                try? await closed.get()
            }
        }
    }

    /// Runs `body` in one transaction: all of its writes commit together, or none do.
    public func transaction<Result: Sendable>(
        _ body: @Sendable (Transaction) async throws -> Result
    ) async throws -> Result {
        try await self.withTransactionHandle(writing: true) { tx in
            try await Self.run(body, on: tx, begin: tx.dialect == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN")
        }
    }

    /// Runs `body`'s reads in one read-only transaction: every statement sees the same committed state (a
    /// report of many counts that must agree). On SQLite it uses a reader connection, so it never waits for
    /// the writer; on PostgreSQL it is `REPEATABLE READ`, and `SET LOCAL` settings last until it ends.
    public func snapshot<Result: Sendable>(
        _ body: @Sendable (Transaction) async throws -> Result
    ) async throws -> Result {
        try await self.withTransactionHandle(writing: false) { tx in
            try await Self.run(
                body,
                on: tx,
                begin: tx.dialect == .sqlite ? "BEGIN" : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
            )
        }
    }

    /// Runs `body`'s reads outside an explicit transaction: each statement sees what was committed when it
    /// ran, with no BEGIN and COMMIT round trips. Most reads are one statement (authenticating a request, a
    /// page of events); a read of several statements may see a write land between them. On SQLite it uses a
    /// reader connection, so it never waits for the writer; a write through it fails.
    public func read<Result: Sendable>(
        _ body: @Sendable (Transaction) async throws -> Result
    ) async throws -> Result {
        try await self.withTransactionHandle(writing: false, body)
    }

    /// Lends `body` a connection: SQLite's writer or one of its readers, or one of PostgreSQL's pool.
    private func withTransactionHandle<Result: Sendable>(
        writing: Bool,
        _ body: @Sendable (Transaction) async throws -> Result
    ) async throws -> Result {
        self.statistics.begin()
        defer { self.statistics.end() }
        let changes = ChangeLog()
        let hooks = CommitHooks()
        // Committed or not (a failed COMMIT may have committed), this node stops serving what the
        // transaction touched; other nodes hear of it by NOTIFY if it committed.
        defer { self.cache.forget(changes.recorded) }
        do {
            let result = try await self.withConnection(writing: writing) { sql in
                try await body(
                    Transaction(
                        sql: sql,
                        dialect: self.dialect,
                        channel: self.eventChannel,
                        node: self.cache.node,
                        changes: changes,
                        hooks: hooks,
                        writes: writing
                    )
                )
            }
            self.reachability.succeeded()
            hooks.run()
            return result
        } catch {
            let translated = Self.translate(error)
            // A lease that timed out counts too: while PostgreSQL is down the pool's connections are gone
            // without a statement noticing, and only the wait says so. Under mere load some requests then
            // fail fast until the next transaction succeeds, which is shedding load all the same.
            if case StoreError.unavailable = translated {
                self.reachability.failed()
            }
            throw translated
        }
    }

    private func withConnection<Result: Sendable>(
        writing: Bool,
        _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        switch self.backend {
        case .sqlite(let writer, let readers):
            try await (writing ? writer : readers).withConnection { try await body($0.sql(queryLogLevel: .trace)) }
        case .postgres(let client, _):
            try await self.lease(from: client) { connection in
                try await body(WatchedConnection(connection, deadline: self.deadlines.statement))
            }
        }
    }

    private static func run<Result: Sendable>(
        _ body: @Sendable (Transaction) async throws -> Result,
        on transaction: Transaction,
        begin: String
    ) async throws -> Result {
        try await transaction.sql.raw(SQLQueryString(begin)).run()
        do {
            let result = try await body(transaction)
            try await transaction.sql.raw("COMMIT").run()
            return result
        } catch {
            try? await transaction.sql.raw("ROLLBACK").run()
            throw error
        }
    }

    /// Maps driver errors to `StoreError`; every other error (a use case's own) passes through unchanged.
    private static func translate(_ error: any Error) -> any Error {
        if error is ConnectionLost { return StoreError.unavailable }
        if let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] {
            switch state {
            case "23505": return StoreError.duplicate
            case "40001", "40P01": return StoreError.conflict
            // Connection exceptions, the server shutting down or not yet accepting, too many connections.
            case _ where state.hasPrefix("08"), "57P01", "57P02", "57P03", "53300": return StoreError.unavailable
            default: return error
            }
        }
        if let error = error as? PSQLError,
            [.connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed]
                .contains(error.code)
        {
            return StoreError.unavailable
        }
        if let error = error as? SQLiteError {
            switch error.reason {
            case .constraintUniqueFailed, .constraintPrimaryKeyFailed: return StoreError.duplicate
            case .busy, .busyTimeout, .locked: return StoreError.conflict
            default: return error
            }
        }
        return error
    }

    /// Fails unless the database answers a trivial query within `deadline` (`StoreError.unavailable`):
    /// while PostgreSQL is down a connection is waited for, not refused, and readiness must not hang.
    public func ping(within deadline: Duration = .seconds(2)) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.read { try await $0.sql.raw("SELECT 1").run() } }
            group.addTask {
                try await Task.sleep(for: deadline)
                throw StoreError.unavailable
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// The most connections this store opens (on SQLite: the writer and its readers).
    public var maximumConnections: Int {
        switch self.backend {
        case .sqlite: 1 + Self.sqliteReaders
        case .postgres(_, let maximum): maximum
        }
    }

    /// How many transactions are running right now.
    public var transactionsInFlight: Int { self.statistics.inFlight }

    /// How many transactions have finished (committed or rolled back) since the store opened.
    public var transactionsCompleted: Int { self.statistics.total }
}

extension Store {
    /// Runs one statement with no bound values, in its own transaction: for operators' tools and tests
    /// (creating a schema, simulating an old or future database), never for request data.
    public func execute(unsafeSQL statement: String) async throws {
        try await self.transaction { try await $0.sql.raw(SQLQueryString(statement)).run() }
        // It may have changed what the cache holds behind its back.
        self.cache.forgetAll()
    }
}
