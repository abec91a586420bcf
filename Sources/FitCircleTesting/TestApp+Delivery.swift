import AsyncHTTPClient
import FitCircleClient
public import FitCircleCore
import FitCircleDelivery
import FitCircleEngine
import FitCircleStore
public import Foundation

extension TestApp {
    /// The attempts to deliver `notification`, on every channel, as the store logged them.
    public func deliveryAttempts(of notification: String) async throws -> [DeliveryAttemptRecord] {
        try await self.store.read { tx in
            try await tx.deliveries.deliveryAttempts(of: NotificationRecord.ID(notification))
        }
    }

    /// The job that delivers `notification` by push.
    public func pushDeliveryJob(of notification: String) async throws -> JobRecord {
        let job = try await self.store.read { tx in
            try await tx.jobs.job(withDedupeKey: "deliver:\(notification):push")
        }
        guard let job else { throw TestSetupError("no push delivery job for \(notification)") }
        return job
    }

    /// Runs the push delivery of `notification` through its four tries, moving the clock to each retry;
    /// answers the waits the job asked for.
    public func pushRetryWaits(of notification: String) async throws -> [TimeInterval] {
        var waits: [TimeInterval] = []
        for _ in 0..<4 {
            try await self.runJobs()
            let job = try await self.pushDeliveryJob(of: notification)
            if job.status == .pending {
                waits.append(job.runAt.timeIntervalSince(self.clock.now))
                self.clock.set(job.runAt.addingTimeInterval(1))
            }
        }
        return waits
    }
}

extension FakeFCM {
    /// Runs `body` with a test app whose pushes go to a fake FCM, and Ana (`ana@example.com`) onboarded with
    /// an Android device (`android-1`): the app, the fake and her id.
    public static func withTestApp(
        _ backend: Backend,
        _ body: @Sendable (TestApp, FakeFCM, _ user: String) async throws -> Void
    ) async throws {
        let clock = TestClock()
        try await FakeFCM.run(now: { clock.now }) { fcm in
            let transports = Transports(
                fcm: try await FCMTransport(
                    account: fcm.account,
                    baseURL: fcm.baseURL,
                    http: .shared,
                    clock: clock.wallClock
                )
            )
            try await FitCircleTesting.withTestApp(backend, clock: clock, transports: transports) { app async throws in
                let token = try await app.onboardedUser()
                _ = try await app.api(token).registerDevice(body: .json(.init(platform: .android, token: "android-1")))
                    .created
                try await body(app, fcm, try await app.devSignIn().user.id)
            }
        }
    }
}
