import FitCircleCore
import FitCircleEngine
import FitCircleJobs
import FitCircleServer
import FitCircleTesting
import Foundation
import HTTPTypes
import Logging
import Testing

/// What outlives its use is deleted once a day: idempotency keys past 24 hours, rate-limit keys at rest.
struct HousekeepingTests {
    static let logger = Logger(label: "housekeeping-test")

    @Test(arguments: Backend.available)
    func expiredIdempotencyKeysAndRestedRateLimitsArePurged(_ backend: Backend) async throws {
        try await withTestApp(backend, limits: RequestLimits(signIns: 3)) { app async throws in
            let token = try await app.onboardedUser()  // a sign-in: a shared rate-limit key
            let event: [String: Any] = [
                "clientEventId": "e-1", "type": "app_open",
                "occurredAt": ISO8601DateFormatter().string(from: app.clock.now),
            ]
            let posted = try await app.request(
                .post,
                "/api/activities",
                token: token,
                json: event,
                headers: [HTTPField.Name("Idempotency-Key")!: "k-1"]
            )
            #expect(posted.status == .created)

            let early = try await app.engine.housekeeping.run()
            #expect(early.idempotencyKeys == 0 && early.rateLimits == 0, "nothing has outlived its use yet: \(early)")
            app.clock.advance(by: 25 * 3_600)
            let due = try await app.engine.housekeeping.run()
            #expect(due.idempotencyKeys == 1)
            #expect(due.rateLimits >= 1)
            let again = try await app.engine.housekeeping.run()
            #expect(again.idempotencyKeys == 0 && again.rateLimits == 0)
        }
    }

    @Test(arguments: Backend.available)
    func thePurgeIsQueuedOnceADayAt0330UTCWhereverUsersLive(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.devSignIn("kathmandu@example.com", timeZone: "Asia/Kathmandu")
            _ = try await app.devSignIn("new-york@example.com", timeZone: "America/New_York")
            app.clock.set(Date(timeIntervalSince1970: 1_772_409_600))  // 2026-03-02 00:00 UTC
            let scheduler = ZoneScheduler(
                store: app.store,
                schedules: app.engine.jobs.schedules,
                clock: app.clock.wallClock,
                logger: Self.logger
            )
            for _ in 0..<(48 * 4) {  // two days, every 15 minutes
                try await scheduler.tick()
                app.clock.advance(by: 900)
            }
            let jobs = try await app.store.read { tx in try await tx.jobs.all(kind: Housekeeping.purge) }
            #expect(
                jobs.map(\.dedupeKey).sorted() == [
                    "housekeeping.purge:UTC:2026-03-02", "housekeeping.purge:UTC:2026-03-03",
                ]
            )
            #expect(jobs.map { Int($0.runAt.timeIntervalSince1970) % 86_400 } == [12_600, 12_600], "03:30 UTC")
        }
    }
}
