import FitCircleEngine
import FitCircleJobs
import FitCircleTesting
import Testing

/// Features register their own jobs (`JobOwner`); the engine's registry refuses a kind registered twice or a
/// schedule nobody handles, so such a node never starts.
struct JobRegistryTests {
    struct Ticker: JobOwner {
        var kinds: [String]
        var schedules: [ZoneSchedule] = []
        func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
            for kind in self.kinds { try jobs.register(kind) { _ in } }
            jobs.schedule(self.schedules)
        }
    }
    struct Sweeper: JobOwner {
        func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
            try jobs.register("tick") { _ in }
        }
    }

    @Test func aKindRegisteredTwiceIsRefusedNamingBothFeatures() throws {
        #expect(throws: JobRegistry.Conflict.registeredTwice(kind: "tick", first: "Ticker", second: "Sweeper")) {
            try JobRegistry(owners: [Ticker(kinds: ["tock", "tick"]), Sweeper()])
        }
        #expect(throws: JobRegistry.Conflict.registeredTwice(kind: "tick", first: "Ticker", second: "Ticker")) {
            try JobRegistry(owners: [Ticker(kinds: ["tick", "tick"])])
        }
        let message = JobRegistry.Conflict.registeredTwice(kind: "tick", first: "Ticker", second: "Sweeper").description
        #expect(message.contains("'tick'") && message.contains("Ticker") && message.contains("Sweeper"))
    }

    @Test func aScheduleOfAKindNobodyHandlesIsRefused() throws {
        let schedule = ZoneSchedule(kind: "tock", hour: 0, minute: 0)
        #expect(throws: JobRegistry.Conflict.scheduledButNotHandled(kind: "tock")) {
            try JobRegistry(owners: [Ticker(kinds: ["tick"], schedules: [schedule])])
        }
        let registry = try JobRegistry(owners: [
            Ticker(kinds: ["tick"], schedules: [schedule]), Ticker(kinds: ["tock"]),
        ])
        #expect(Set(registry.handlers.keys) == ["tick", "tock"])
        #expect(registry.schedules == [schedule])
    }

    @Test(arguments: Backend.available)
    func theEngineRegistersEveryFeaturesJobsAndSchedules(_ backend: Backend) async throws {
        try await withTestEngine(backend) { test async throws in
            let jobs = test.engine.jobs
            let kinds = [
                DayRollover.planGoals, DayRollover.closeStreaks, ReminderPlanner.planDay, ReminderPlanner.trigger,
                BoardClosing.closeDay,
                Housekeeping.purge, Metrics.rollup, Notifications.deliver, Notifications.raise, Challenges.remind,
                Challenges.progress,
                Challenges.badges, Circles.postNews, Friends.announceWorkout, Friends.fanOutWorkout,
            ]
            for kind in kinds { #expect(jobs.handlers[kind] != nil, "\(kind)") }
            #expect(
                Set(jobs.schedules.map(\.kind)) == [
                    DayRollover.planGoals, DayRollover.closeStreaks, ReminderPlanner.planDay, BoardClosing.closeDay,
                    Housekeeping.purge,
                    Challenges.progress, Metrics.rollup,
                ]
            )
        }
    }
}
