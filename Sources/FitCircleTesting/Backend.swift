public import FitCircleStore
public import Foundation
import Logging
import PostgresNIO

/// The databases every store and HTTP test runs against. SQLite always; PostgreSQL where
/// `FITCIRCLE_TEST_DATABASE_URL` is set (CI sets it), each test in a fresh schema.
public enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres

    public var description: String { self.rawValue }

    public static var available: [Backend] {
        allCases.filter { $0 != .postgres || Self.postgresURL != nil }
    }

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["FITCIRCLE_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A fresh, empty database location: a new SQLite file, or a new PostgreSQL schema.
    public func makeLocation() async throws -> DatabaseLocation {
        let name = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fitcircle-tests")
            return .sqlite(path: directory.appendingPathComponent("\(name).sqlite").path)
        case .postgres:
            guard let url = Self.postgresURL, case .postgres(var location) = try DatabaseLocation(url: url) else {
                throw TestSetupError("FITCIRCLE_TEST_DATABASE_URL must be a postgres:// URL")
            }
            try await Self.execute("CREATE SCHEMA \(name)", on: location)
            location.schema = name
            return .postgres(location)
        }
    }

    /// Removes what `makeLocation` created.
    public static func drop(_ location: DatabaseLocation) async {
        switch location {
        case .sqlite(let path):
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        case .postgres(var location):
            guard let schema = location.schema else { return }
            location.schema = nil
            try? await Self.execute("DROP SCHEMA \(schema) CASCADE", on: location)
        }
    }

    private static func execute(_ statement: String, on location: DatabaseLocation.PostgresLocation) async throws {
        let store = try await Store.open(
            .postgres(location),
            maximumConnections: 1,
            deadlines: .tests,
            logger: Logger(label: "tests")
        )
        try await withRunning(store) { try await store.execute(unsafeSQL: statement) }
    }
}

extension Store.Deadlines {
    /// A machine running the whole suite (dozens of stores, each opening its pool) can take seconds to open a
    /// connection; the tests of the deadlines themselves set their own.
    public static let tests = Store.Deadlines(connection: .seconds(60), statement: .seconds(120))
}

/// The test environment is not set up as the test needs.
public struct TestSetupError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Runs `body` with a migrated store on a fresh database of `backend`, then closes and removes it.
public func withStore<Result: Sendable>(
    _ backend: Backend,
    now: Date = .t0,
    _ body: @Sendable (Store) async throws -> Result
) async throws -> Result {
    let location = try await backend.makeLocation()
    // Eight connections a store: dozens of suites run at once, and at 20 each they reached PostgreSQL's 500.
    let store = try await Store.open(location, maximumConnections: 8, deadlines: .tests, logger: Logger(label: "tests"))
    let result: Result
    do {
        result = try await withRunning(store) {
            try await MigrationTurns.withTurn { try await store.migrate(now: now) }
            return try await body(store)
        }
    } catch {
        await Backend.drop(location)
        throw error
    }
    await Backend.drop(location)
    return result
}
