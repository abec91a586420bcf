import Synchronization

/// Something small read from the database that every request may need (the live experiments, the webhook
/// subscriptions): a node keeps it for `freshness` before reading it again, and forgets it at once when it
/// changes it itself. Other nodes see a change within `freshness`. Its age is measured on the machine's
/// `ContinuousClock`, not the injected wall clock: it is how old a copy is, not a time of the domain.
final class LiveSnapshot<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, loadedAt: ContinuousClock.Instant?)>((nil, nil))
    let freshness: Duration

    init(freshness: Duration = .seconds(5)) {
        self.freshness = freshness
    }

    /// The value, unless it is older than `freshness` (or forgotten).
    func current() -> Value? {
        self.state.withLock { state in
            guard let value = state.value, let loadedAt = state.loadedAt,
                ContinuousClock.now - loadedAt < self.freshness
            else { return nil }
            return value
        }
    }

    func keep(_ value: Value) {
        self.state.withLock { $0 = (value, .now) }
    }

    func forget() {
        self.state.withLock { $0 = (nil, nil) }
    }
}
