import FitCircleCore
import FitCircleEngine
import ServiceLifecycle
import Synchronization

/// The server-sent event streams open on this node: at most `perUser` for one person (429 past it) and
/// `perNode` in all (503), since each holds a connection and a task for up to an hour. A stream ends when
/// its session does (signed out, revoked, its account disabled), checked every `sessionCheck` from the
/// session cache, which sign-outs on other nodes reach too; when what it shows is no longer the caller's to
/// see (`allowed`, asked as often: a removal from a circle); when the client goes (found by the heartbeat's
/// failed write, `LiveEvents.body`); and when the node begins to stop (SIGTERM).
final class OpenStreams: Sendable {
    let perUser: Int
    let perNode: Int
    let sessionCheck: Duration
    /// How often a quiet stream writes a comment, by which a closed connection is found (`LiveEvents.body`).
    let heartbeat: Duration
    private let open = Mutex<(total: Int, byUser: [User.ID: Int])>((0, [:]))

    init(perUser: Int, perNode: Int, sessionCheck: Duration = .seconds(2), heartbeat: Duration = .seconds(5)) {
        self.perUser = perUser
        self.perNode = perNode
        self.sessionCheck = sessionCheck
        self.heartbeat = heartbeat
    }

    /// Takes a place for one of the caller's streams, or throws the refusal.
    private func enter(_ user: User.ID) throws {
        let refusal: ProblemDocument? = self.open.withLock { open in
            if open.byUser[user, default: 0] >= self.perUser {
                return .rateLimited("At most \(self.perUser) streams may be open at once; close one first.", retryAfter: 5)
            }
            if open.total >= self.perNode {
                var problem = ProblemDocument.unavailable("This server has as many streams open as it takes; try again shortly.")
                problem.retryAfter = 5
                return problem
            }
            open.total += 1
            open.byUser[user, default: 0] += 1
            return nil
        }
        if let refusal { throw refusal }
    }

    private func leave(_ user: User.ID) {
        self.open.withLock { open in
            open.total -= 1
            open.byUser[user, default: 1] -= 1
            if open.byUser[user] == 0 { open.byUser[user] = nil }
        }
    }

    /// The events `open` makes, as the caller's stream: counted against the caps while it is open, and
    /// ended when the caller's session ends. Throws at once when a cap is reached, before `open` runs: a
    /// refused stream subscribes to nothing.
    func stream<Events: AsyncSequence & Sendable>(
        of caller: Caller, accounts: Accounts, allowed: @escaping @Sendable () async -> Bool = { true }, _ open: () async throws -> Events
    ) async throws -> AsyncThrowingStream<Events.Element, any Error> where Events.Element: Sendable {
        try self.enter(caller.userID)
        let events: Events
        do {
            events = try await open()
        } catch {
            self.leave(caller.userID)
            throw error
        }
        let interval = self.sessionCheck
        return AsyncThrowingStream { continuation in
            let pump = continuation.forwarding(events)
            let watch = Task {
                // A node told to stop ends its streams at once: the server waits for open requests to finish
                // before it stops, and a stream would hold it for up to an hour (the handler is the server
                // service's, inherited by this task; without a service group there is none).
                await withGracefulShutdownHandler {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: interval)
                        guard !Task.isCancelled else { break }
                        let signedIn = await accounts.isSignedIn(caller)
                        let stillAllowed = signedIn ? await allowed() : false
                        if !stillAllowed {
                            pump.cancel()
                            continuation.finish()
                        }
                    }
                } onGracefulShutdown: {
                    pump.cancel()
                    continuation.finish()
                }
            }
            continuation.onTermination = { _ in
                pump.cancel()
                watch.cancel()
                self.leave(caller.userID)
            }
        }
    }
}
