import ArgumentParser
import FitCircleCore
import FitCircleServer
import FitCircleStore
import Logging

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply the database migrations this build knows, then exit."
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let runtime = try await Runtime(options: self.options)
        let applied = try await runtime.withStore { store in
            try await store.migrate(now: runtime.clock.now()) { [logger = runtime.logger] in logger.info("\($0)") }
        }
        runtime.logger.info(
            "Migrated",
            metadata: [
                "fitcircle.database": "\(runtime.configuration.store.location)",
                "fitcircle.migrations.applied": "\(applied)",
                "fitcircle.schema.version": "\(Store.supportedSchemaVersion)",
            ]
        )
    }
}
