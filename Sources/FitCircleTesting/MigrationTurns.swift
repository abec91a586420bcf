import Synchronization

/// At most a few test stores migrate at once. Each of a few hundred stores creates some sixty tables and
/// indexes at its start; all at once, that kept PostgreSQL too busy to answer the tests' timed checks
/// (readiness within 2 s) for the first minute of a run.
enum MigrationTurns {
    static let concurrent = 4

    private static let state = Mutex<(running: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

    static func withTurn<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        await withCheckedContinuation { continuation in
            let now = Self.state.withLock { state in
                guard state.running < Self.concurrent else {
                    state.waiting.append(continuation)
                    return false
                }
                state.running += 1
                return true
            }
            if now { continuation.resume() }
        }
        defer {
            let next = Self.state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.waiting.isEmpty else {
                    state.running -= 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
        return try await body()
    }
}
