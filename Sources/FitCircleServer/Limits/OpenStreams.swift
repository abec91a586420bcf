import FitCircleCore
import FitCircleEngine
import Foundation
import OpenAPIRuntime
import ServiceLifecycle
import Synchronization

/// The server-sent event streams open on this node: at most `perUser` for one person (429 past it) and
/// `perNode` in all (503), since each holds a connection for up to an hour. A stream ends when its session
/// does (signed out, revoked, its account disabled), checked every `sessionCheck` from the session cache,
/// which sign-outs on other nodes reach too; when what it shows is no longer the caller's to see (`allowed`,
/// asked as often: a removal from a circle); when the client goes (found by the heartbeat's failed write);
/// when its time (`seconds`) is up; and when the node begins to stop (SIGTERM).
///
/// A stream is one task (its events, encoded, into the body) beside the connection's: the heartbeats, the
/// session checks and the ends of every stream are made by one task of the node (`sweep`), which runs while
/// streams are open. Ten thousand streams were eight tasks and five timers each (issue 42).
final class OpenStreams: Sendable {
    let perUser: Int
    let perNode: Int
    let sessionCheck: Duration
    /// How often a stream writes a comment, by which a closed connection is found (and proxies keep it).
    let heartbeat: Duration
    private let open = Mutex<(total: Int, byUser: [User.ID: Int])>((0, [:]))
    private let watched = Mutex<(streams: [Int: Watched], next: Int, sweeper: Task<Void, Never>?)>(([:], 0, nil))

    /// What the sweep keeps of an open stream.
    private struct Watched: Sendable {
        let caller: Caller
        let accounts: Accounts
        let allowed: @Sendable () async -> Bool
        let body: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation
        var beaten: ContinuousClock.Instant
        var checked: ContinuousClock.Instant
        /// When its time is up.
        let ends: ContinuousClock.Instant
    }

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
                return .rateLimited(
                    "At most \(self.perUser) streams may be open at once; close one first.",
                    retryAfter: 5
                )
            }
            if open.total >= self.perNode {
                var problem = ProblemDocument.unavailable(
                    "This server has as many streams open as it takes; try again shortly."
                )
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

    /// The body of one of the caller's streams: `first`, then the events `encode` makes of each element of
    /// what `open` answers, until it ends, `duration` passes (within a tick of the sweep), the caller may no
    /// longer see it, or the client goes; counted against the caps while open. Throws at once when a cap is reached, before `open` runs: a refused
    /// stream subscribes to nothing.
    func body<Events: AsyncSequence & Sendable>(
        of caller: Caller,
        accounts: Accounts,
        for duration: Duration,
        allowed: @escaping @Sendable () async -> Bool = { true },
        first: [ServerSentEvent] = [],
        _ open: () async throws -> Events,
        encode: @escaping @Sendable (Events.Element) throws -> [ServerSentEvent]
    ) async throws -> HTTPBody where Events.Element: Sendable {
        try self.enter(caller.userID)
        let events: Events
        do {
            events = try await open()
        } catch {
            self.leave(caller.userID)
            throw error
        }
        let (bytes, body) = AsyncThrowingStream<ArraySlice<UInt8>, any Error>.makeStream()
        for event in first { body.yield(LiveEvents.encoded(event)) }
        // Filed and given its ending before its task starts: events that end at once still give the place back.
        let now = ContinuousClock.now
        let id = self.watch(
            Watched(
                caller: caller,
                accounts: accounts,
                allowed: allowed,
                body: body,
                beaten: now,
                checked: now,
                ends: now + duration
            )
        )
        let running = RunningTask()
        body.onTermination = { _ in
            running.task.withLock { $0?.cancel() }
            self.watched.withLock { _ = $0.streams.removeValue(forKey: id) }
            self.leave(caller.userID)
        }
        let task = Task {
            // A node told to stop ends its streams at once: the server waits for open requests to finish before
            // it stops, and a stream would hold it for up to an hour (the handler is the server service's,
            // inherited by this task; without a service group there is none).
            await withGracefulShutdownHandler {
                do {
                    for try await element in events {
                        for event in try encode(element) { body.yield(LiveEvents.encoded(event)) }
                    }
                } catch {}
            } onGracefulShutdown: {
                body.finish()
            }
            body.finish()
        }
        running.task.withLock { $0 = task }
        return HTTPBody(bytes, length: .unknown, iterationBehavior: .single)
    }

    /// Files a stream for the sweep, starting it when it is not running.
    private func watch(_ stream: Watched) -> Int {
        self.watched.withLock { watched in
            let id = watched.next
            watched.next += 1
            watched.streams[id] = stream
            // Detached: it serves every stream, not the request that happened to start it (nor its task-locals).
            if watched.sweeper == nil { watched.sweeper = Task.detached { await self.sweep() } }
            return id
        }
    }

    /// Every open stream's heartbeat, session check and end, as they fall due; it stops when no stream is open.
    private func sweep() async {
        let tick = min(self.heartbeat, self.sessionCheck) / 2
        while true {
            try? await Task.sleep(for: tick)
            let now = ContinuousClock.now
            // Decided under the lock, done outside it: ending a body runs its `onTermination`, which takes the lock.
            let found: (ended: [Watched], beats: [Watched], due: [Watched])? = self.watched.withLock { watched in
                guard !watched.streams.isEmpty else {
                    watched.sweeper = nil
                    return nil
                }
                var found: (ended: [Watched], beats: [Watched], due: [Watched]) = ([], [], [])
                for (id, stream) in watched.streams {
                    if now >= stream.ends {
                        found.ended.append(stream)
                        continue
                    }
                    if now - stream.beaten >= self.heartbeat {
                        found.beats.append(stream)
                        watched.streams[id]?.beaten = now
                    }
                    if now - stream.checked >= self.sessionCheck {
                        found.due.append(stream)
                        watched.streams[id]?.checked = now
                    }
                }
                return found
            }
            guard let (ended, beats, due) = found else { return }
            for stream in ended { stream.body.finish() }
            for stream in beats { stream.body.yield(LiveEvents.heartbeat) }
            for stream in due {
                let stillAllowed = await stream.accounts.isSignedIn(stream.caller) ? await stream.allowed() : false
                if !stillAllowed { stream.body.finish() }
            }
        }
    }
}

/// A stream's task, for its ending to cancel (set once the task is made).
private final class RunningTask: Sendable {
    let task = Mutex<Task<Void, Never>?>(nil)
}
