import Synchronization
import Testing

@testable import FitCircleEngine

/// Jobs that arrive while a group is written are written together next, up to the weight limit, and every
/// job gets its own answer.
struct GroupCommitTests {
    /// Records the groups it was given; the first group waits until `open` is called.
    final class Recorder: Sendable {
        let groups = Mutex<[[Int]]>([])
        let gate: AsyncStream<Void>
        let open: AsyncStream<Void>.Continuation

        init() {
            (self.gate, self.open) = AsyncStream.makeStream()
        }

        func run(_ jobs: [Int]) async -> [Result<Int, any Error>] {
            let isFirst = self.groups.withLock { groups in
                groups.append(jobs)
                return groups.count == 1
            }
            if isFirst {
                for await _ in self.gate { break }
            }
            return jobs.map { $0 < 0 ? .failure(Refused()) : .success($0 * 10) }
        }

        struct Refused: Error {}
    }

    @Test func jobsArrivingDuringAWriteAreWrittenTogetherWithinTheWeightLimit() async throws {
        let recorder = Recorder()
        let committer = GroupCommit<Int, Int>(maximumWeight: 5) { await recorder.run($0) }
        try await withThrowingTaskGroup(of: (Int, Int?).self) { group in
            group.addTask { (1, try await committer.submit(1, weight: 1)) }
            // Wait until the first group is being written, then queue the rest behind it.
            while recorder.groups.withLock({ $0.isEmpty }) { await Task.yield() }
            for job in [2, 3, -4, 5] {
                group.addTask { (job, try? await committer.submit(job, weight: 2)) }
            }
            // The queued jobs arrive before the first write ends.
            while committer.waiting < 4 { await Task.yield() }
            recorder.open.yield()
            var answers: [Int: Int?] = [:]
            for try await (job, answer) in group { answers[job] = answer }
            #expect(answers == [1: 10, 2: 20, 3: 30, -4: nil, 5: 50])
        }
        let groups = recorder.groups.withLock { $0 }
        #expect(groups.first == [1])
        // Weight 2 each under a limit of 5: the four queued jobs go in two groups of two, in arrival order.
        #expect(groups.count == 3)
        #expect(groups.dropFirst().allSatisfy { $0.count == 2 })
        #expect(Set(groups.joined()) == [1, 2, 3, -4, 5])
    }

    @Test func aJobHeavierThanTheLimitIsWrittenAlone() async throws {
        let recorder = Recorder()
        recorder.open.yield()
        let committer = GroupCommit<Int, Int>(maximumWeight: 5) { await recorder.run($0) }
        #expect(try await committer.submit(7, weight: 50) == 70)
        #expect(recorder.groups.withLock { $0 } == [[7]])
    }
}
