import FitCircleStore
import Foundation
import Logging
import Testing

/// A PostgreSQL that does not answer makes readiness fail within its deadline, as `unavailable` (503),
/// instead of hanging while the pool waits for a connection.
struct UnavailableDatabaseTests {
    @Test func aPingOfAnUnreachablePostgreSQLFailsWithinItsDeadline() async throws {
        // Port 9 (discard) on loopback: nothing listens there, so every connection is refused.
        let store = try await Store.open(
            try DatabaseLocation(url: "postgres://postgres@127.0.0.1:9/nothing?sslmode=disable"), logger: Logger(label: "tests"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            defer { group.cancelAll() }
            // Without the deadline this would wait for a connection as long as the pool keeps trying.
            await #expect(throws: StoreError.unavailable) { try await store.ping(within: .seconds(1)) }
        }
    }
}
