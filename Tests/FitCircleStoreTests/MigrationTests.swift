import FitCircleCore
import FitCircleStore
import FitCircleTesting
import Foundation
import Logging
import Testing

struct MigrationTests {
    @Test(arguments: Backend.available)
    func migratingTwiceAppliesNothingTheSecondTime(_ backend: Backend) async throws {
        try await withStore(backend) { store async throws in
            let applied = try await store.migrate(now: .t0)
            #expect(applied == [])
        }
    }

    @Test(arguments: Backend.available)
    func aDatabaseFromANewerFitCircleIsRefused(_ backend: Backend) async throws {
        try await withStore(backend) { store async throws in
            try await store.execute(unsafeSQL: "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', CURRENT_TIMESTAMP)")
            await #expect(throws: StoreError.databaseNewer(found: 999, supported: Store.supportedSchemaVersion)) {
                try await store.migrate(now: .t0)
            }
        }
    }

    @Test func anEmptyDatabaseIsMigratedFromScratch() async throws {
        let location = try await Backend.sqlite.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let store = try await Store.open(location, deadlines: .tests, logger: Logger(label: "tests"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            defer { group.cancelAll() }
            let applied = try await store.migrate(now: .t0)
            #expect(applied == Array(1...Store.supportedSchemaVersion))
        }
    }
}
