import PostgresNIO
import Synchronization

extension Store {
    /// Runs `body` with one of the pool's connections, or fails as `StoreError.unavailable` when none is lent
    /// within the connection deadline: while PostgreSQL is down, the pool keeps trying to connect and a
    /// request would wait as long as the outage lasts. Only the wait is bounded; `body` runs as long as it takes.
    /// While the database seems unreachable, the wait is brief except for the probe (see `Reachability`).
    func lease<Result: Sendable>(
        from client: PostgresClient,
        _ body: @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let admission = self.reachability.admit(deadline: self.deadlines.connection)
        defer { if admission.isProbe { self.reachability.probeEnded() } }
        let deadline = admission.wait
        // Whoever moves the lease out of `waiting` first decides: the connection, or the deadline.
        let lease = Lease()
        return try await withoutActuallyEscaping(body) { body in
            try await withThrowingTaskGroup(of: Result?.self) { group in
                group.addTask {
                    try await client.withConnection { connection in
                        guard lease.settle(as: .lent) else { throw StoreError.unavailable }
                        return try await body(connection)
                    }
                }
                group.addTask {
                    try await Task.sleep(for: deadline)
                    guard lease.settle(as: .expired) else { return nil }
                    throw StoreError.unavailable
                }
                defer { group.cancelAll() }
                while let answer = try await group.next() {
                    if let answer { return answer }
                }
                preconditionFailure("the lease's task answers or throws")
            }
        }
    }
}

private final class Lease: Sendable {
    enum State { case waiting, lent, expired }

    private let state = Mutex(State.waiting)

    /// Moves out of `waiting` to `outcome`; false if the other side got there first.
    func settle(as outcome: State) -> Bool {
        self.state.withLock { state in
            guard state == .waiting else { return false }
            state = outcome
            return true
        }
    }
}
