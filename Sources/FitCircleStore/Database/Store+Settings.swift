public import Configuration
public import FitCircleCore
public import Foundation
public import Logging

extension Store {
    /// Where the database is and how the node uses it (`database.*`, `sqlite.synchronous`).
    public struct Settings: Sendable {
        public var location: DatabaseLocation
        public var sqliteSynchronous: SQLiteSynchronous
        public var maxConnections: Int
        public var deadlines: Deadlines

        public init(
            location: DatabaseLocation,
            sqliteSynchronous: SQLiteSynchronous = .normal,
            maxConnections: Int = 20,
            deadlines: Deadlines = Deadlines()
        ) {
            self.location = location
            self.sqliteSynchronous = sqliteSynchronous
            self.maxConnections = maxConnections
            self.deadlines = deadlines
        }

        /// - `database.url` (default `sqlite://<working directory>/fitcircle.sqlite`)
        /// - `sqlite.synchronous` (`normal` or `full`, default `normal`), `database.maxConnections` (default 20)
        /// - `database.connectionWaitSeconds` (default 5), `database.statementSeconds` (default 60; 0: no limit)
        public init(reader: ConfigReader, workingDirectory: URL) throws {
            let defaultDatabase = "sqlite://" + workingDirectory.appendingPathComponent("fitcircle.sqlite").path
            let location = try DatabaseLocation(
                url: reader.string(forKey: "database.url", isSecret: true, default: defaultDatabase)
            )
            let synchronous = reader.string(forKey: "sqlite.synchronous", default: "normal")
            guard let mode = SQLiteSynchronous(rawValue: synchronous.uppercased()) else {
                throw InvalidSetting(key: "sqlite.synchronous", expected: "normal or full", found: synchronous)
            }
            let connectionWait = reader.int(forKey: "database.connectionWaitSeconds", default: 5)
            guard connectionWait > 0 else {
                throw InvalidSetting(
                    key: "database.connectionWaitSeconds",
                    expected: "a number of seconds above 0",
                    found: "\(connectionWait)"
                )
            }
            let statementSeconds = reader.int(forKey: "database.statementSeconds", default: 60)
            guard statementSeconds >= 0 else {
                throw InvalidSetting(
                    key: "database.statementSeconds",
                    expected: "a number of seconds, or 0 for no limit",
                    found: "\(statementSeconds)"
                )
            }
            self.init(
                location: location,
                sqliteSynchronous: mode,
                maxConnections: reader.int(forKey: "database.maxConnections", default: 20),
                deadlines: Deadlines(
                    connection: .seconds(connectionWait),
                    statement: statementSeconds == 0 ? nil : .seconds(statementSeconds)
                )
            )
        }
    }

    /// Opens the database these settings name; call `run()` next and `migrate()` before use.
    public static func open(_ settings: Settings, logger: Logger) async throws -> Store {
        try await Self.open(
            settings.location,
            sqliteSynchronous: settings.sqliteSynchronous,
            maximumConnections: settings.maxConnections,
            deadlines: settings.deadlines,
            logger: logger
        )
    }
}
