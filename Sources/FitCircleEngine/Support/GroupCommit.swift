import Synchronization

/// Group commit: jobs submitted while the runners are busy wait and are then written together, in one
/// transaction. An idle committer starts a job at once, so nobody waits for a timer; under load the groups
/// grow by themselves, and the per-transaction costs (BEGIN, COMMIT, the fsync of a durable commit, the
/// statements a group needs whatever its size) are shared by everyone in the group.
///
/// No task of its own does the writing: a submitter holding a runner slot writes its job together with the
/// jobs waiting, answers them, then hands the slot to the oldest job still waiting, whose submitter writes
/// the next group. Every waiting job is taken out of the queue and answered exactly once.
final class GroupCommit<Job: Sendable, Output: Sendable>: Sendable {
    /// Writes a group and answers each job, in order.
    typealias Run = @Sendable ([Job]) async -> [Result<Output, any Error>]

    /// What a waiting submitter is told: its answer, or that it holds a runner slot now.
    private enum Turn: Sendable {
        case answered(Result<Output, any Error>)
        case lead
    }

    private struct Waiting: Sendable {
        var job: Job
        var weight: Int
        var continuation: CheckedContinuation<Turn, Never>
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

    /// How many jobs wait behind the groups being written.
    var waiting: Int { self.state.withLock { $0.queue.count } }

    func submit(_ job: Job, weight: Int) async throws -> Output {
        let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
            let leads = self.state.withLock { state in
                guard state.runners < self.runners else {
                    state.queue.append(Waiting(job: job, weight: weight, continuation: continuation))
                    return false
                }
                state.runners += 1
                return true
            }
            if leads { continuation.resume(returning: .lead) }
        }
        switch turn {
        case .answered(let result):
            return try result.get()
        case .lead:
            return try await self.lead(with: job, weight: weight).get()
        }
    }

    /// Writes `job` with the oldest waiting jobs that fit, answers them, and passes the runner slot on.
    private func lead(with job: Job, weight: Int) async -> Result<Output, any Error> {
        let others = self.state.withLock { state in
            var total = weight
            var count = 0
            for waiting in state.queue {
                if total + waiting.weight > self.maximumWeight { break }
                total += waiting.weight
                count += 1
            }
            let group = Array(state.queue.prefix(count))
            state.queue.removeFirst(count)
            return group
        }
        let results = await self.run([job] + others.map(\.job))
        precondition(results.count == others.count + 1, "a group commit must answer every job")
        for (waiting, result) in zip(others, results.dropFirst()) {
            waiting.continuation.resume(returning: .answered(result))
        }
        let next = self.state.withLock { state -> Waiting? in
            guard !state.queue.isEmpty else {
                state.runners -= 1
                return nil
            }
            return state.queue.removeFirst()
        }
        next?.continuation.resume(returning: .lead)
        return results[0]
    }
}
