import Synchronization

/// Whether PostgreSQL answered lately, as a circuit breaker. From a transaction that failed as unavailable
/// (a connection lost, or none lent in time) to the next that succeeds, leases wait only briefly for a
/// connection: while the database is down, requests queued behind others (the activity writer's groups)
/// would otherwise each wait the whole deadline in turn. One lease at a time, the probe, still waits the
/// whole deadline, so the node notices the database is back even when opening a connection takes longer
/// than the brief wait (a loaded machine, TLS to a distant server).
final class Reachability: Sendable {
    /// How long a lease waits while the database is unreachable, unless it is the probe.
    static let briefWait = Duration.milliseconds(250)

    private enum State {
        case reachable
        case unreachable(probing: Bool)
    }
    private let state = Mutex(State.reachable)

    struct Admission {
        let wait: Duration
        let isProbe: Bool
    }

    /// How long the next lease may wait for a connection, given the store's deadline.
    func admit(deadline: Duration) -> Admission {
        self.state.withLock { state in
            switch state {
            case .reachable:
                return Admission(wait: deadline, isProbe: false)
            case .unreachable(probing: false):
                state = .unreachable(probing: true)
                return Admission(wait: deadline, isProbe: true)
            case .unreachable(probing: true):
                return Admission(wait: min(deadline, Self.briefWait), isProbe: false)
            }
        }
    }

    /// A probe's lease ended, whatever its outcome (`succeeded` or `failed` says which).
    func probeEnded() {
        self.state.withLock { state in
            if case .unreachable(probing: true) = state { state = .unreachable(probing: false) }
        }
    }

    /// A transaction went through: a pooled connection may be dead unnoticed, so only this shows the
    /// database answers again.
    func succeeded() {
        self.state.withLock { state in
            if case .unreachable = state { state = .reachable }
        }
    }

    /// A transaction failed as unavailable.
    func failed() {
        self.state.withLock { state in
            if case .reachable = state { state = .unreachable(probing: false) }
        }
    }
}
