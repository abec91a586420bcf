import FitCircleCore
import PostgresNIO
import Synchronization

extension Store {
    /// Runs `body` with one of the pool's connections, or fails as `StoreError.unavailable` when none is lent
    /// within the connection deadline: while PostgreSQL is down, the pool keeps trying to connect and a
    /// request would wait as long as the outage lasts. Only the wait is bounded; `body` runs as long as it takes.
    /// While the database seems unreachable, the wait is brief except for the probe (see `Reachability`).
    ///
    /// The request for a connection runs in a task of its own that nobody waits for. A caller whose deadline
    /// passes (or who is cancelled) is answered at once; the request is cancelled and left to end by itself,
    /// and a connection lent to it later goes straight back. Awaiting the request, as a task group does, would
    /// make the caller's deadline depend on PostgresNIO answering a cancelled request promptly, which nothing
    /// promises while its pool is busy (suspected, never shown, while a suite's hangs were hunted: their
    /// cause was a test node on a taken port).
    func lease<Result: Sendable>(
        from client: PostgresClient,
        _ body: @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let admission = self.reachability.admit(deadline: self.deadlines.connection)
        defer { if admission.isProbe { self.reachability.probeEnded() } }
        let handoff = Handoff()
        let request = Task {
            do {
                try await client.withConnection { connection in
                    guard handoff.offer(connection) else { return }
                    await handoff.returned()
                }
            } catch {
                handoff.end(error)
            }
        }
        let timer = Task {
            try? await Task.sleep(for: admission.wait)
            handoff.end(StoreError.unavailable)
        }
        defer { timer.cancel() }
        let connection: PostgresConnection
        do {
            connection = try await withTaskCancellationHandler {
                try await handoff.connection()
            } onCancel: {
                handoff.end(CancellationError())
            }
        } catch {
            request.cancel()
            throw error
        }
        defer { handoff.giveBack() }
        return try await body(connection)
    }
}

/// A connection passed from the task that leased it to the caller that uses it, and back. Whoever moves it
/// out of `waiting` first decides: a connection, a failure, or the deadline.
private final class Handoff: Sendable {
    private enum State {
        case waiting(CheckedContinuation<PostgresConnection, any Error>?)
        case lent(PostgresConnection)
        case ended(any Error)
        /// The caller is done with the connection; the leasing task may give it back to the pool.
        case returned
    }

    private let state = Mutex(State.waiting(nil))
    private let back = Mutex<(done: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    /// The pool lent `connection`: the caller gets it, unless it gave up already (then false: give it back).
    func offer(_ connection: PostgresConnection) -> Bool {
        let waiter: CheckedContinuation<PostgresConnection, any Error>?? = self.state.withLock { state in
            guard case .waiting(let waiter) = state else { return .none }
            state = .lent(connection)
            return .some(waiter)
        }
        guard case .some(let continuation) = waiter else { return false }
        continuation?.resume(returning: connection)
        return true
    }

    /// Ends the wait with `error`, unless a connection or another error came first.
    func end(_ error: any Error) {
        let waiter: CheckedContinuation<PostgresConnection, any Error>?? = self.state.withLock { state in
            guard case .waiting(let waiter) = state else { return .none }
            state = .ended(error)
            return .some(waiter)
        }
        if case .some(let continuation) = waiter { continuation?.resume(throwing: error) }
    }

    /// The caller's wait for the connection.
    func connection() async throws -> PostgresConnection {
        try await withCheckedThrowingContinuation { continuation in
            let outcome: Swift.Result<PostgresConnection, any Error>? = self.state.withLock { state in
                switch state {
                case .waiting:
                    state = .waiting(continuation)
                    return nil
                case .lent(let connection): return .success(connection)
                case .ended(let error): return .failure(error)
                case .returned: return .failure(StoreError.unavailable)
                }
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    /// The caller is done with the connection.
    func giveBack() {
        self.state.withLock { $0 = .returned }
        let waiter = self.back.withLock { back in
            back.done = true
            return back.waiter
        }
        waiter?.resume()
    }

    /// Until the caller gives the connection back.
    func returned() async {
        await withCheckedContinuation { continuation in
            let done = self.back.withLock { back in
                if !back.done { back.waiter = continuation }
                return back.done
            }
            if done { continuation.resume() }
        }
    }
}
