public import FitCircleCore
import Foundation
import Synchronization

/// Wakes a user's open inbox streams on this node the moment something lands in their inbox, here or (by
/// NOTIFY) on another node. A stream subscribes before its first read; each signal moves the user's
/// generation on, and a stream waits for it to differ from the one it last saw, or for its timeout (a slow
/// safety poll). Only users with an open stream are tracked.
final class InboxSignals: Sendable {
    private struct Listening {
        var streams = 0
        var generation = 0
        var waiters: [UUID: CheckedContinuation<Int, Never>] = [:]
    }

    private let users = Mutex<[User.ID: Listening]>([:])

    /// Starts tracking the user for one more stream; answers the generation to wait from.
    func subscribe(_ user: User.ID) -> Int {
        self.users.withLock { users in
            var listening = users[user, default: Listening()]
            listening.streams += 1
            users[user] = listening
            return listening.generation
        }
    }

    func unsubscribe(_ user: User.ID) {
        self.users.withLock { users in
            users[user]?.streams -= 1
            if users[user]?.streams == 0 && users[user]?.waiters.isEmpty == true { users[user] = nil }
        }
    }

    func signal(_ user: User.ID) {
        let (waiters, generation) = self.users.withLock { users -> ([CheckedContinuation<Int, Never>], Int) in
            guard var listening = users[user] else { return ([], 0) }
            listening.generation += 1
            let waiters = Array(listening.waiters.values)
            listening.waiters = [:]
            users[user] = listening
            return (waiters, listening.generation)
        }
        for waiter in waiters { waiter.resume(returning: generation) }
    }

    /// Signals every user with an open stream.
    func signalEveryone() {
        for user in self.users.withLock({ Array($0.keys) }) { self.signal(user) }
    }

    /// Waits until the user's generation differs from `seen` or `timeout` passes; answers the generation.
    func wait(for user: User.ID, since seen: Int, timeout: Duration) async -> Int {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let current: Int? = self.users.withLock { users in
                    guard var listening = users[user], listening.generation == seen else {
                        return users[user]?.generation ?? seen
                    }
                    listening.waiters[id] = continuation
                    users[user] = listening
                    return nil
                }
                if let current {
                    continuation.resume(returning: current)
                } else {
                    Task {
                        try? await Task.sleep(for: timeout)
                        self.release(id, of: user)
                    }
                }
            }
        } onCancel: {
            self.release(id, of: user)
        }
    }

    /// Resumes one waiter, if it still waits.
    private func release(_ id: UUID, of user: User.ID) {
        let (waiter, generation) = self.users.withLock { users in
            (users[user]?.waiters.removeValue(forKey: id), users[user]?.generation ?? 0)
        }
        waiter?.resume(returning: generation)
    }
}
