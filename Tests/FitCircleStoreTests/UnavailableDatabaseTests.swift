import FitCircleCore
import FitCircleStore
import FitCircleTesting
import Foundation
import Logging
import Testing

/// A PostgreSQL that does not answer makes readiness fail within its deadline, as `unavailable` (503),
/// instead of hanging while the pool waits for a connection.
struct UnavailableDatabaseTests {
    @Test func aPingOfAnUnreachablePostgreSQLFailsWithinItsDeadline() async throws {
        // Port 9 (discard) on loopback: nothing listens there, so every connection is refused.
        let store = try await Store.open(
            try DatabaseLocation(url: "postgres://postgres@127.0.0.1:9/nothing?sslmode=disable"),
            logger: Logger(label: "tests")
        )
        try await withRunning(store) {
            // Without the deadline this would wait for a connection as long as the pool keeps trying.
            await #expect(throws: StoreError.unavailable) { try await store.ping(within: .seconds(1)) }
        }
    }
}

/// Every PostgreSQL transaction waits a bounded time for a connection, and every statement for its answer.
@Suite(.enabled(if: Backend.available.contains(.postgres)))
struct DatabaseDeadlineTests {
    /// A store of one connection on the test database, with the given deadlines.
    func withStore(_ deadlines: Store.Deadlines, _ body: @Sendable (Store) async throws -> Void) async throws {
        let location = try await Backend.postgres.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let store = try await Store.open(
            location,
            maximumConnections: 1,
            deadlines: deadlines,
            logger: Logger(label: "tests")
        )
        try await withRunning(store) {
            try await body(store)
        }
    }

    /// Waits until the pool's one connection is open: on a loaded machine opening it can take longer than a
    /// short connection deadline.
    static func openFirstConnection(of store: Store) async throws {
        for attempt in 1...60 {
            do {
                try await store.execute(unsafeSQL: "SELECT 1")
                return
            } catch StoreError.unavailable where attempt < 60 {}
        }
    }

    @Test func aStatementPastItsDeadlineFailsAsUnavailable() async throws {
        // A generous wait for connections: a loaded machine can take seconds to open the next one.
        try await self.withStore(Store.Deadlines(connection: .seconds(30), statement: .seconds(1))) { store in
            let started = ContinuousClock.now
            // The statement would take 30 s; cut at its deadline, it ends in seconds even on a loaded machine
            // (6.02 s once, with the whole suite beside it).
            await #expect(throws: StoreError.unavailable) { try await store.execute(unsafeSQL: "SELECT pg_sleep(30)") }
            #expect(ContinuousClock.now - started < .seconds(15), "the 30 s statement ends soon after its 1 s deadline")
            // The connection it had is closed; the pool opens another (a loaded machine may first lend the
            // closed one, which fails as unavailable too).
            try await Self.openFirstConnection(of: store)
        }
    }

    @Test func aTransactionThatGetsNoConnectionInTimeFailsAsUnavailable() async throws {
        try await self.withStore(Store.Deadlines(connection: .milliseconds(500), statement: nil)) { store in
            try await Self.openFirstConnection(of: store)
            try await withThrowingTaskGroup(of: Void.self) { group in
                // The only connection is busy for 6 s.
                group.addTask { try await store.execute(unsafeSQL: "SELECT pg_sleep(6)") }
                try await Task.sleep(for: .milliseconds(300))
                let started = ContinuousClock.now
                await #expect(throws: StoreError.unavailable) { try await store.execute(unsafeSQL: "SELECT 1") }
                // Failed at its 500 ms deadline, not when the connection came free (a loaded machine is slow to
                // answer either way).
                #expect(ContinuousClock.now - started < .seconds(4))
                try await group.waitForAll()
            }
            // A statement without a deadline ran its 6 s, and the pool lends again.
            try await store.execute(unsafeSQL: "SELECT 1")
        }
    }
}

extension DatabaseDeadlineTests {
    /// Many transactions queued for the one connection each give up at their deadline, whatever the pool
    /// does with their requests afterwards: none of them waits for the connection to come free.
    @Test func manyWaitersAllGiveUpAtTheirDeadline() async throws {
        try await self.withStore(Store.Deadlines(connection: .milliseconds(500), statement: nil)) { store in
            try await Self.openFirstConnection(of: store)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await store.execute(unsafeSQL: "SELECT pg_sleep(8)") }
                try await Task.sleep(for: .milliseconds(300))
                let started = ContinuousClock.now
                let outcomes = try await withThrowingTaskGroup(of: Bool.self) { waiters in
                    for _ in 0..<50 {
                        waiters.addTask {
                            do {
                                try await store.execute(unsafeSQL: "SELECT 1")
                                return true
                            } catch StoreError.unavailable { return false }
                        }
                    }
                    return try await waiters.reduce(into: [Bool]()) { $0.append($1) }
                }
                #expect(outcomes.count == 50 && !outcomes.contains(true))
                #expect(
                    ContinuousClock.now - started < .seconds(5),
                    "the waiters gave up before the connection came free"
                )
                try await group.waitForAll()
            }
            try await store.execute(unsafeSQL: "SELECT 1")
        }
    }
}
