public import FitCircleCore
import FitCircleEngine
import FitCircleJobs
import FitCircleStore
public import Foundation
import Logging

extension EngineHarness {
    /// Runs every job due on the test's clock, and those they enqueue, until none is due: what the node's
    /// workers would have done by now. Answers how many ran.
    @discardableResult
    public func runJobs() async throws -> Int {
        let runner = JobRunner(
            store: self.store,
            handlers: self.engine.jobs.handlers,
            batches: self.engine.jobs.batches,
            clock: self.clock.wallClock,
            logger: Logger(label: "test")
        )
        var ran = 0
        while true {
            let count = try await runner.runDue(limit: 50)
            guard count > 0 else { return ran }
            ran += count
        }
    }

    /// Lets the test's clock run to `instant` as on a node left running: the zone scheduler ticks and the jobs
    /// due run now, at every `step` on the way (a quarter of an hour, as the node's scheduler; a long run
    /// that only needs the daily jobs may take up to its catch-up of 6 hours), and at `instant`.
    public func passTime(until instant: Date, step: TimeInterval = 900) async throws {
        let scheduler = ZoneScheduler(
            store: self.store,
            schedules: self.engine.jobs.schedules,
            clock: self.clock.wallClock,
            logger: Logger(label: "test")
        )
        while true {
            _ = try await scheduler.tick()
            try await self.runJobs()
            guard self.clock.now < instant else { return }
            self.clock.advance(by: min(step, instant.timeIntervalSince(self.clock.now)))
        }
    }

    /// Lets `hours` pass on the test's clock (`passTime(until:)`).
    public func passTime(hours: Double) async throws {
        try await self.passTime(until: self.clock.now.addingTimeInterval(hours * 3_600))
    }
}

extension JobRecord {
    /// A job of kind `test` (no handler of the app runs it) keyed `key`, due at `runAt`.
    public static func test(_ key: String, runAt: Date, maxAttempts: Int = 3) -> JobRecord {
        JobRecord(
            id: UUID().uuidString.lowercased(),
            kind: "test",
            payload: "{}",
            dedupeKey: key,
            runAt: runAt,
            maxAttempts: maxAttempts
        )
    }
}

/// What a test's job handler throws to fail.
public struct FlakyJobError: Error {
    public init() {}
}
