import FitCircleCore
import FitCircleEngine
import FitCircleJobs
import FitCircleStore
import FitCircleTesting
import Foundation
import Logging
import Synchronization
import Testing

/// The durable job queue and the per-zone scheduler: leases, retries, dedupe, leaders, and the day rollover
/// that closes streaks for users who do not open the app.
struct JobsTests {
    static let logger = Logger(label: "jobs-test")

    /// A recorder of the jobs a handler saw.
    final class Seen: Sendable {
        let ids = Mutex<[String]>([])
        func add(_ id: String) { self.ids.withLock { $0.append(id) } }
        var all: [String] { self.ids.withLock { $0 } }
    }

    @Test(arguments: Backend.available)
    func aJobIsQueuedOnceLeasedToOneRunnerAndTakenOverWhenItsLeaseExpires(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let now = app.clock.now
            let queued = try await app.store.transaction { tx in
                try await tx.enqueue(
                    [
                        JobRecord.test("k1", runAt: now), JobRecord.test("k1", runAt: now),
                        JobRecord.test("k2", runAt: now.addingTimeInterval(60)),
                    ],
                    at: now
                )
            }
            #expect(queued == 2)

            // Runner A claims k1 and dies before finishing: its lease holds k1 for 120 s.
            let claimed = try await app.store.transaction { tx in
                try await tx.jobs.claim(
                    kinds: ["test"],
                    limit: 10,
                    owner: "A",
                    leaseUntil: now.addingTimeInterval(120),
                    now: now
                )
            }
            #expect(claimed.map(\.dedupeKey) == ["k1"])
            let seen = Seen()
            let runnerB = JobRunner(
                store: app.store,
                handlers: ["test": { seen.add($0.dedupeKey) }],
                clock: app.clock.wallClock,
                logger: Self.logger,
                owner: "B"
            )
            #expect(try await runnerB.runDue() == 0)

            app.clock.advance(by: 121)
            #expect(try await runnerB.runDue() == 2)  // k1 taken over, k2 now due
            #expect(seen.all == ["k1", "k2"])
            // A comes back and cannot complete a job it no longer holds.
            #expect(
                try await app.store.transaction { tx in
                    try await tx.jobs.complete([claimed[0].id], owner: "A", at: app.clock.now)
                } == 0
            )
            let k1 = try #require(try await app.store.read { tx in try await tx.jobs.job(withDedupeKey: "k1") })
            #expect(k1.status == .done && k1.attempts == 2)
            #expect(try await runnerB.runDue() == 0)
        }
    }

    /// A node told to stop finishes the job it runs and gives back the ones it claimed but had not started:
    /// due again at once for another runner, not held until the lease expires, with no attempt spent.
    @Test(arguments: Backend.available)
    func aStoppingRunnerFinishesItsJobAndGivesTheOthersBack(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let now = app.clock.now
            try await app.store.transaction { tx in
                try await tx.enqueue((1...3).map { JobRecord.test("s\($0)", runAt: now) }, at: now)
            }
            let stopping = Mutex(false)
            let seen = Seen()
            let runnerA = JobRunner(
                store: app.store,
                handlers: [
                    "test": { job in
                        seen.add(job.dedupeKey)
                        stopping.withLock { $0 = true }  // the stop comes while the first job runs
                    }
                ],
                clock: app.clock.wallClock,
                logger: Self.logger,
                owner: "A"
            )
            #expect(try await runnerA.runDue(isStopping: { stopping.withLock { $0 } }) == 1)
            let ran = try #require(seen.all.first)
            #expect(seen.all.count == 1)
            for key in ["s1", "s2", "s3"] {
                let job = try #require(try await app.store.read { tx in try await tx.jobs.job(withDedupeKey: key) })
                if key == ran {
                    #expect(job.status == .done)
                } else {
                    #expect(job.status == .pending && job.attempts == 0, "\(key) is given back unspent")
                }
            }
            // Another runner takes them at once.
            let runnerB = JobRunner(
                store: app.store,
                handlers: ["test": { seen.add($0.dedupeKey) }],
                clock: app.clock.wallClock,
                logger: Self.logger,
                owner: "B"
            )
            #expect(try await runnerB.runDue() == 2)
            #expect(seen.all.sorted() == ["s1", "s2", "s3"])
        }
    }

    @Test(arguments: Backend.available)
    func aFailingJobBacksOffAndIsGivenUpAfterItsLastAttempt(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            try await app.store.transaction { tx in
                try await tx.enqueue([JobRecord.test("f", runAt: app.clock.now, maxAttempts: 3)], at: app.clock.now)
            }
            var runner = JobRunner(
                store: app.store,
                handlers: ["test": { _ in throw FlakyJobError() }],
                clock: app.clock.wallClock,
                logger: Self.logger
            )
            runner.backoff = Backoff(base: 30, factor: 2, maximum: 3_600, jitter: 0)
            #expect(try await runner.runDue() == 1)
            var job = try #require(try await app.store.read { tx in try await tx.jobs.job(withDedupeKey: "f") })
            #expect(
                job.status == .pending && job.runAt == app.clock.now.addingTimeInterval(30)
                    && job.lastError?.contains("Flaky") == true
            )
            #expect(try await runner.runDue() == 0)
            app.clock.advance(by: 30)
            #expect(try await runner.runDue() == 1)
            job = try #require(try await app.store.read { tx in try await tx.jobs.job(withDedupeKey: "f") })
            #expect(job.runAt == app.clock.now.addingTimeInterval(60))
            app.clock.advance(by: 60)
            #expect(try await runner.runDue() == 1)
            job = try #require(try await app.store.read { tx in try await tx.jobs.job(withDedupeKey: "f") })
            #expect(job.status == .failed && job.attempts == 3)
        }
    }

    /// A kind run in batches: the test kind, up to four at once; a batch holding `bad` fails as a whole.
    struct Batched: JobOwner {
        let seen: Seen
        func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
            try jobs.register("test", batchesOf: 4) { jobs in
                if jobs.contains(where: { $0.dedupeKey == "bad" }) { throw FlakyJobError() }
                self.seen.add(jobs.map(\.dedupeKey).joined(separator: "+"))
            }
        }
    }

    /// A runner takes a batched kind's due jobs together, beyond its claim's limit up to the batch's size,
    /// and marks them done together; a batch that fails runs again one job at a time, so only the job that
    /// cannot run fails (and is retried), and the others are done.
    @Test(arguments: Backend.available)
    func jobsOfABatchedKindRunTogether_andAFailingBatchRunsAgainOneByOne(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let now = app.clock.now
            let seen = Seen()
            let registry = try JobRegistry(owners: [Batched(seen: seen)])
            let runner = JobRunner(
                store: app.store,
                handlers: registry.handlers,
                batches: registry.batches,
                clock: app.clock.wallClock,
                logger: Self.logger
            )
            try await app.store.transaction { tx in
                try await tx.enqueue(["a", "b", "c", "d", "e", "f"].map { JobRecord.test($0, runAt: now) }, at: now)
            }
            #expect(try await runner.runDue(limit: 2) == 4)
            #expect(try await runner.runDue(limit: 2) == 2)
            #expect(try await runner.runDue(limit: 2) == 0)
            // In claim order (due time, then id): four, then the other two.
            let batches = seen.all.map { Set($0.split(separator: "+").map(String.init)) }
            #expect(
                batches.map(\.count) == [4, 2]
                    && batches.reduce(Set()) { $0.union($1) } == ["a", "b", "c", "d", "e", "f"]
            )
            let done = try await app.store.read { tx in try await tx.jobs.all(kind: "test") }
            #expect(done.count == 6 && done.allSatisfy { $0.status == .done && $0.attempts == 1 })

            try await app.store.transaction { tx in
                try await tx.enqueue(["g", "bad", "h"].map { JobRecord.test($0, runAt: now) }, at: now)
            }
            #expect(try await runner.runDue() == 3)
            #expect(seen.all.count == 4 && Set(seen.all.suffix(2)) == ["g", "h"])
            let bad = try #require(try await app.store.read { tx in try await tx.jobs.job(withDedupeKey: "bad") })
            #expect(bad.status == .pending && bad.attempts == 1 && bad.runAt > now)
            let others = try await app.store.read { tx in try await tx.jobs.all(kind: "test") }.filter {
                ["g", "h"].contains($0.dedupeKey)
            }
            #expect(others.count == 2 && others.allSatisfy { $0.status == .done })
        }
    }

    @Test func backoffGrowsToItsCeilingWithinTheJitterBand() {
        let backoff = Backoff(base: 30, factor: 2, maximum: 3_600, jitter: 0.2)
        #expect(backoff.delay(afterAttempt: 1, random: 0.5) == 30)
        #expect(backoff.delay(afterAttempt: 3, random: 0.5) == 120)
        #expect(backoff.delay(afterAttempt: 20, random: 0.5) == 3_600)
        #expect(backoff.delay(afterAttempt: 1, random: 0) == 24)
        #expect(backoff.delay(afterAttempt: 1, random: 1) == 36)
    }

    /// Every zone's 00:05 job is queued at its own 00:05, by whichever of two schedulers leads the tick, once.
    @Test(arguments: Backend.available)
    func eachZoneGetsItsJobAtItsOwnLocalTimeOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            for (index, zone) in TestZones.farApart.enumerated() {
                _ = try await app.devSignIn("user\(index)@example.com", timeZone: zone)
            }
            let schedule = ZoneSchedule(kind: "test.close", hour: 0, minute: 5)
            let schedulers = (0..<2).map { _ in
                ZoneScheduler(store: app.store, schedules: [schedule], clock: app.clock.wallClock, logger: Self.logger)
            }
            var firstSeen: [String: Date] = [:]
            let start = Date(timeIntervalSince1970: 1_772_409_600)  // 2026-03-02 00:00 UTC
            app.clock.set(start)
            for _ in 0..<(26 * 12) {
                async let a = schedulers[0].tick()
                async let b = schedulers[1].tick()
                _ = try await (a, b)
                for job in try await app.store.read({ tx in try await tx.jobs.all(kind: "test.close") })
                where firstSeen[job.dedupeKey] == nil {
                    firstSeen[job.dedupeKey] = app.clock.now
                }
                app.clock.advance(by: 300)
            }
            let jobs = try await app.store.read { tx in try await tx.jobs.all(kind: "test.close") }
            #expect(Set(jobs.map(\.dedupeKey)).count == jobs.count)
            for zone in TestZones.farApart {
                let timeZone = TimeZone(identifier: zone)!
                let mine = jobs.filter { (try? ZoneBatch($0))?.zone == zone }
                #expect(!mine.isEmpty, "\(zone)")
                for job in mine {
                    var calendar = Calendar(identifier: .gregorian)
                    calendar.timeZone = timeZone
                    let local = calendar.dateComponents([.hour, .minute], from: job.runAt)
                    #expect(local.hour == 0 && local.minute == 5, "\(zone): \(job.runAt)")
                    #expect(try ZoneBatch(job).date == LocalDate(job.runAt, in: timeZone))
                    // Before the first tick, a time passed less than 6 hours ago is made up at once.
                    let queuedAt = try #require(firstSeen[job.dedupeKey])
                    let lateness = queuedAt.timeIntervalSince(max(job.runAt, start))
                    #expect(lateness >= 0 && lateness < 300, "\(zone) queued \(queuedAt) for \(job.runAt)")
                    #expect(start.timeIntervalSince(job.runAt) < 6 * 3_600)
                }
            }
        }
    }

    /// 2026-03-08 in New York: 02:00 becomes 03:00, so 02:30 never happens; the job runs at 03:00.
    /// 2026-11-01: 01:30 happens twice; the job runs once.
    @Test func aSkippedLocalTimeRunsAtTheEndOfTheGapAndARepeatedOneOnce() {
        let newYork = TimeZone(identifier: "America/New_York")!
        let skipped = ZoneScheduler.occurrence(
            of: ZoneSchedule(kind: "x", hour: 2, minute: 30),
            in: newYork,
            before: Date(timeIntervalSince1970: 1_772_971_200)
        )  // 12:00 UTC
        #expect(skipped?.0 == LocalDate(year: 2026, month: 3, day: 8))
        #expect(skipped?.1 == Date(timeIntervalSince1970: 1_772_953_200))  // 07:00 UTC = 03:00 EDT
        let repeated = ZoneScheduler.occurrence(
            of: ZoneSchedule(kind: "x", hour: 1, minute: 30),
            in: newYork,
            before: Date(timeIntervalSince1970: 1_793_534_400)
        )  // 12:00 UTC
        #expect(repeated?.0 == LocalDate(year: 2026, month: 11, day: 1))
        // the first 01:30 (EDT); the dedupe key holds the date
        #expect(repeated?.1 == Date(timeIntervalSince1970: 1_793_511_000))
    }

    /// A user who checked in on Monday and never opened the app again: the 00:05 jobs close Monday and
    /// Tuesday in the streak ledger without any read.
    @Test(arguments: Backend.available)
    func theRolloverClosesTheDayForUsersWhoDoNotOpenTheApp(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser(timeZone: "Asia/Kathmandu")
            let checkIn = try await app.request(
                .post,
                "/api/streaks/checkin",
                token: try await app.devSignIn().accessToken,
                json: ["mood": 4, "energy": 3]
            )
            #expect(checkIn.status == .created || checkIn.status == .ok, "\(checkIn.text)")
            let scheduler = ZoneScheduler(
                store: app.store,
                schedules: DayRollover.schedules,
                clock: app.clock.wallClock,
                logger: Self.logger
            )
            let runner = JobRunner(
                store: app.store,
                handlers: try JobRegistry(owners: [app.engine.dayRollover]).handlers,
                clock: app.clock.wallClock,
                logger: Self.logger
            )
            for _ in 0..<(48 * 4) {  // two days, every 15 minutes
                try await scheduler.tick()
                try await runner.runDue()
                app.clock.advance(by: 900)
            }
            let user = User.ID(try await app.devSignIn().user.id)
            let entries = try await app.store.read { tx in
                try await tx.streaks.entries(
                    of: user,
                    from: LocalDate(year: 2026, month: 3, day: 1)!,
                    to: LocalDate(year: 2026, month: 3, day: 10)!
                )
            }
            #expect(entries.map(\.period.iso) == ["2026-03-02", "2026-03-03"])
            #expect(entries.first?.status == .active)
            let goals = try await app.store.read { tx in
                try await tx.goals.list(
                    of: user,
                    span: .daily,
                    from: LocalDate(year: 2026, month: 3, day: 3)!,
                    to: LocalDate(year: 2026, month: 3, day: 4)!
                )
            }
            #expect(Set(goals.map(\.period.iso)) == ["2026-03-03", "2026-03-04"])
        }
    }
}
