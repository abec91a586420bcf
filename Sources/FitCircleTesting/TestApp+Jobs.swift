import FitCircleEngine
import FitCircleJobs
import Logging

extension TestApp {
    /// Runs every job due on the test's clock, and those they enqueue, until none is due: what the node's
    /// workers would have done by now.
    public func runJobs() async throws {
        let runner = JobRunner(
            store: self.store,
            handlers: self.engine.jobs.handlers,
            clock: self.clock.wallClock,
            logger: Logger(label: "test")
        )
        while try await runner.runDue(limit: 50) > 0 {}
    }
}
