import Synchronization

/// Group commit: jobs submitted while the runners are busy wait and are then written together, in one
/// transaction. An idle committer starts a job at once, so nobody waits for a timer; under load the groups
/// grow by themselves, and the per-transaction costs (BEGIN, COMMIT, the fsync of a durable commit, the
/// statements a group needs whatever its size) are shared by everyone in the group.
final class GroupCommit<Job: Sendable, Output: Sendable>: Sendable {
    /// Writes a group and answers each job, in order.
    typealias Run = @Sendable ([Job]) async -> [Result<Output, any Error>]

    private struct Waiting: Sendable {
        var job: Job
        var weight: Int
        var continuation: CheckedContinuation<Output, any Error>
    }

    private struct State: Sendable {
        var queue: [Waiting] = []
        var runners = 0
    }

    private let state = Mutex(State())
    private let maximumWeight: Int
    private let runners: Int
    private let run: Run

    /// - Parameters:
    ///   - maximumWeight: a group stops growing at this total weight (a group always takes one job).
    ///   - runners: how many groups may be written at once (SQLite has one writer; PostgreSQL has many).
    init(maximumWeight: Int, runners: Int = 1, run: @escaping Run) {
        self.maximumWeight = maximumWeight
        self.runners = runners
        self.run = run
    }

    func submit(_ job: Job, weight: Int) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            let startRunner = self.state.withLock { state in
                state.queue.append(Waiting(job: job, weight: weight, continuation: continuation))
                guard state.runners < self.runners else { return false }
                state.runners += 1
                return true
            }
            if startRunner {
                Task { await self.drain() }
            }
        }
    }

    private func drain() async {
        while let group = self.nextGroup() {
            let results = await self.run(group.map(\.job))
            precondition(results.count == group.count, "a group commit must answer every job")
            for (waiting, result) in zip(group, results) {
                waiting.continuation.resume(with: result)
            }
        }
    }

    /// The oldest waiting jobs up to the maximum weight, or nil (and this runner stops) when none wait.
    private func nextGroup() -> [Waiting]? {
        self.state.withLock { state in
            guard !state.queue.isEmpty else {
                state.runners -= 1
                return nil
            }
            var weight = 0
            var count = 0
            for waiting in state.queue {
                if count > 0 && weight + waiting.weight > self.maximumWeight { break }
                weight += waiting.weight
                count += 1
            }
            let group = Array(state.queue.prefix(count))
            state.queue.removeFirst(count)
            return group
        }
    }
}
