import FitCircleCore
import FitCircleEngine
import FitCircleServer
import FitCircleStore
import Foundation
import Logging

/// What every command needs: the configuration, a logger and the real clock.
struct Runtime {
    var configuration: FitCircleConfiguration
    var logger: Logger
    let clock = WallClock.system

    init(options: GlobalOptions) async throws {
        let reader = try await options.reader()
        self.configuration = try FitCircleConfiguration(
            reader: reader,
            workingDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        )
        let level = Logger.Level(rawValue: self.configuration.logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        self.logger = Logger(label: "fitcircle")
    }

    func openStore() async throws -> Store {
        try await Store.open(self.configuration.store, logger: self.logger)
    }

    /// Runs `body` while the store's connections are alive, then closes them.
    func withStore<Result: Sendable>(_ body: @Sendable (Store) async throws -> Result) async throws -> Result {
        let store = try await self.openStore()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            defer { group.cancelAll() }
            return try await body(store)
        }
    }
}
