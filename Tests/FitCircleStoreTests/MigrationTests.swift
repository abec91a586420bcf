import FitCircleCore
import FitCircleStore
import FitCircleTesting
import Foundation
import Logging
import Synchronization
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
            try await store.execute(
                unsafeSQL:
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', CURRENT_TIMESTAMP)"
            )
            await #expect(throws: StoreError.databaseNewer(found: 999, supported: Store.supportedSchemaVersion)) {
                try await store.migrate(now: .t0)
            }
        }
    }

    @Test func anEmptyDatabaseIsMigratedFromScratch() async throws {
        let location = try await Backend.sqlite.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let store = try await Store.open(location, deadlines: .tests, logger: Logger(label: "tests"))
        try await withRunning(store) {
            let applied = try await store.migrate(now: .t0)
            #expect(applied == Array(1...Store.supportedSchemaVersion))
        }
    }

    /// Accounts made before the people search index existed are indexed by a later migration (41, whose entries
    /// carry what a result shows), with its progress reported.
    @Test(arguments: Backend.available)
    func theSearchIndexMigrationIndexesTheNamesOfEveryExistingAccount(_ backend: Backend) async throws {
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let store = try await Store.open(location, deadlines: .tests, logger: Logger(label: "tests"))
        try await withRunning(store) {
            try await store.migrate(now: .t0, upTo: 17)
            let rows = ((1...1_205).map { ("u\($0)", "Person \($0)") } + [("jose", "José Ángel")]).map { id, name in
                "('\(id)', '\(id)@example.com', 'member', '\(name)', 'kg', 'cm', 'UTC', 'friends', 'friends', 'friends', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            }
            try await store.execute(
                unsafeSQL: """
                    INSERT INTO users (id, email, role, display_name, weight_unit, height_unit, time_zone, visibility_age,
                        visibility_weight, visibility_height, created_at, updated_at)
                    VALUES \(rows.joined(separator: ", "))
                    """
            )
            let reports = Mutex<[String]>([])
            #expect(
                try await store.migrate(now: .t0) { message in reports.withLock { $0.append(message) } }
                    == Array(18...Store.supportedSchemaVersion)
            )
            #expect(reports.withLock { $0 }.last?.hasSuffix("1206 names indexed") == true)
            #expect(reports.withLock { $0 }.count == 2)
            let terms = try await store.read { tx in
                try await tx.search.people(
                    matching: .init(text: "angel", whole: false),
                    after: nil,
                    limit: 10,
                    seenBy: User.ID("u1")
                )
            }
            #expect(terms.map(\.person.userID) == [User.ID("jose")])
            // The index pages from a cursor: every "person" once, in term order.
            var (cursor, seen): ((term: String, user: User.ID)?, [String]) = (nil, [])
            while true {
                let after = cursor
                let page = try await store.read { tx in
                    try await tx.search.people(
                        matching: .init(text: "person", whole: false),
                        after: after,
                        limit: 50,
                        seenBy: User.ID("jose")
                    )
                }
                seen += page.map(\.person.userID.rawValue)
                guard let last = page.last else { break }
                cursor = (last.term, last.person.userID)
            }
            #expect(seen.count == 1_205 && Set(seen).count == 1_205)
        }
    }
}
