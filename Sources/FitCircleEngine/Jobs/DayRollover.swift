public import FitCircleCore
public import FitCircleJobs
public import FitCircleStore
import Foundation

/// The jobs that turn each local day over where users live: at 00:00 the day's goals are planned, at
/// 00:05 the day before is closed in every streak. Reads do the same lazily; these make it happen for users
/// who do not open the app, so that reminders, boards and digests see closed days. A zone's users are taken
/// a page at a time, each page a job of its own (queued by the one before), and every step is idempotent:
/// planning or closing twice changes nothing.
public struct DayRollover: JobOwner {
    public static let planGoals = "goals.plan_day"
    public static let closeStreaks = "streaks.close_day"
    public static let schedules = [
        ZoneSchedule(kind: Self.planGoals, hour: 0, minute: 0),
        ZoneSchedule(kind: Self.closeStreaks, hour: 0, minute: 5),
    ]
    static let pageSize = 500

    let store: Store
    let goals: Goals
    let streaks: Streaks
    let clock: WallClock

    public func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        try jobs.register(Self.planGoals) { job in
            try await self.forEachUser(of: job) { _ = try await self.goals.daily(of: $0) }
        }
        try jobs.register(Self.closeStreaks) { job in
            try await self.forEachUser(of: job) { _ = try await self.streaks.current(of: $0) }
        }
        jobs.schedule(Self.schedules)
    }

    /// Runs `work` for one page of the zone's users, then queues the next page.
    private func forEachUser(of job: JobRecord, _ work: @Sendable (User.ID) async throws -> Void) async throws {
        let batch = try ZoneBatch(job)
        let users = try await self.store.read { tx in
            try await tx.jobs.users(inTimeZone: batch.zone, after: batch.after.map(User.ID.init), limit: Self.pageSize)
        }
        for user in users {
            try await work(user)
        }
        if users.count == Self.pageSize, let last = users.last {
            let now = self.clock.now()
            let next = try ZoneBatch(zone: batch.zone, date: batch.date, after: last.rawValue).job(job.kind, runAt: now)
            try await self.store.transaction { tx in try await tx.enqueue([next], at: now) }
        }
    }
}
