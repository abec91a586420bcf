import Synchronization

/// Counts transactions for `/metrics` without a dependency on a metrics backend.
final class TransactionStatistics: Sendable {
    private let state = Mutex<(inFlight: Int, total: Int)>((0, 0))

    func begin() {
        self.state.withLock { $0.inFlight += 1 }
    }

    func end() {
        self.state.withLock {
            $0.inFlight -= 1
            $0.total += 1
        }
    }

    var inFlight: Int { self.state.withLock { $0.inFlight } }
    var total: Int { self.state.withLock { $0.total } }
}
