public import FitCircleStore
import Foundation
import Synchronization

/// Runs `body` while `store` runs (PostgreSQL's pool lives in `Store.run()`), then stops the store and waits
/// for it at most 10 s: nothing promises that PostgresNIO's `PostgresClient.run()` returns promptly once
/// cancelled, and a test that waited for it without bound could hang the whole run. A store that does not
/// stop in time is reported on standard error and left behind.
public func withRunning<Result: Sendable>(_ store: Store, _ body: () async throws -> Result) async throws -> Result {
    let stopped = StopFlag()
    let running = Task {
        await store.run()
        stopped.set()
    }
    let outcome: Swift.Result<Result, any Error>
    do {
        outcome = .success(try await body())
    } catch {
        outcome = .failure(error)
    }
    running.cancel()
    for _ in 0..<100 where !stopped.isSet {
        try? await Task.sleep(for: .milliseconds(100))
    }
    if !stopped.isSet {
        FileHandle.standardError.write(
            Data(
                "warning: a test store (\(store.location)) did not stop within 10 s of its cancellation; left behind\n"
                    .utf8
            )
        )
    }
    return try outcome.get()
}

private final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { self.value.load(ordering: .acquiring) }
    func set() { self.value.store(true, ordering: .releasing) }
}
