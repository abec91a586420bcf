import FitCircleCore
import FitCircleDelivery
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// The outbox delivered through APNs against a fake APNs on loopback (issue 8): HTTP/2 over TLS with a
/// certificate from a CA the tests made, an ES256 provider token the fake verifies, Apple's headers and
/// spec 000's payload; sandbox tokens to the sandbox host; every answer classified, dead and doubtful
/// tokens handled as Apple advises, a dropped connection retried on a new one, an expired token replaced.
struct APNsDeliveryTests {
    static let phone = String(repeating: "a1", count: 32)
    static let devPhone = String(repeating: "b2", count: 32)

    /// Runs `body` with APNs configured against a fake and an onboarded user (Europe/Paris, 13:00 there)
    /// with one iPhone on a production token.
    static func withAPNs(_ backend: Backend, _ body: @Sendable (TestApp, FakeAPNs, _ user: String) async throws -> Void)
        async throws
    {
        let clock = TestClock()
        try await FakeAPNs.run(now: { clock.now }) { apns in
            let transport = try await APNsTransport(
                credentials: apns.credentials,
                productionURL: apns.productionURL,
                sandboxURL: apns.sandboxURL,
                http: apns.client,
                clock: clock.wallClock
            )
            try await withTestApp(backend, clock: clock, transports: Transports(apns: transport)) { app async throws in
                let token = try await app.onboardedUser()
                let device = try await app.request(
                    .post,
                    "/api/notifications/register",
                    token: token,
                    json: ["platform": "ios", "token": Self.phone]
                )
                #expect(device.status == .created, "\(device.text)")
                try await body(app, apns, try await app.devSignIn().user.id)
            }
        }
    }

    static func outcomes(_ app: TestApp, _ notification: String) async throws -> [String] {
        try await app.deliveryAttempts(of: notification).filter { $0.channel == .push }.map(\.outcome)
    }

    @Test(arguments: Backend.available)
    func aPushGoesOverHTTP2WithAppleHeadersTheSpecsPayloadAndOneReusedProviderToken(_ backend: Backend) async throws {
        try await Self.withAPNs(backend) { app, apns, user in
            try await app.runJobs()  // the welcome, and whatever else onboarding raised
            let unread = try await app.store.read { tx in try await tx.notifications.unreadCount(of: User.ID(user)) }
            let token = try await app.devSignIn().accessToken
            let sandbox = try await app.request(
                .post,
                "/api/notifications/register",
                token: token,
                json: ["platform": "ios", "token": Self.devPhone, "environment": "sandbox"]
            )
            #expect(sandbox.status == .created, "\(sandbox.text)")
            let sent = try await app.sendNotification("daily_checkin_reminder", key: "one")
            let id = sent.id
            try await app.runJobs()

            let received = apns.received
            #expect(received.map(\.deviceToken).sorted() == [Self.phone, Self.devPhone].sorted())
            #expect(received.first { $0.deviceToken == Self.phone }?.environment == "production")
            #expect(received.first { $0.deviceToken == Self.devPhone }?.environment == "sandbox")
            let push = try #require(received.first)
            #expect(
                push.title == sent.title
                    && push.body == "⏰ Complete your check-in to keep your 14-day streak alive!"
            )
            #expect(
                push.data == [
                    "type": "daily_checkin_reminder", "deep_link": try #require(sent.deepLink), "notification_id": id,
                ]
            )
            #expect(
                push.sound == "default" && push.badge == unread + 1,
                "badge: the unread notifications, this one included"
            )
            #expect(
                push.headers["apns-topic"] == FakeAPNs.topic && push.headers["apns-push-type"] == "alert"
                    && push.headers["apns-priority"] == "10"
            )
            #expect(push.headers["apns-collapse-id"] == "daily_checkin_reminder")
            #expect(push.headers["apns-expiration"] == String(Int(app.clock.now.timeIntervalSince1970) + 86_400))
            #expect(try await Self.outcomes(app, id) == ["delivered", "delivered"])
            let attempt = try #require(try await app.deliveryAttempts(of: id).first)
            #expect(attempt.provider == "apns" && attempt.status == 200)

            // Ten minutes on, another push: the same provider token, the same connection per host.
            app.clock.advance(by: 600)
            _ = try await app.sendNotification("challenge_milestone", key: "two")
            try await app.runJobs()
            #expect(apns.received.count == 4)
            #expect(apns.providerTokens == 1 && apns.connections == 2)
            #expect(apns.received.last { $0.deviceToken == Self.phone }?.badge == unread + 2)
        }
    }

    @Test(arguments: Backend.available)
    func anUnregisteredTokenIsDeactivatedAtOnceAndNeverUsedAgain(_ backend: Backend) async throws {
        try await Self.withAPNs(backend) { app, apns, user in
            apns.script(Self.phone, [.status(410, reason: "Unregistered")])
            let first = try await app.sendNotification("daily_checkin_reminder", key: "one").id
            try await app.runJobs()
            #expect(try await Self.outcomes(app, first) == ["target_dead"])
            #expect(
                try await app.store.read { tx in try await tx.notifications.activeDevices(of: User.ID(user)) }.isEmpty
            )
            _ = try await app.sendNotification("challenge_milestone", key: "two")
            try await app.runJobs()
            #expect(apns.received.count == 1)
        }
    }

    /// `BadDeviceToken` is often a sandbox token sent to production: the device stays until it happens twice.
    @Test(arguments: Backend.available)
    func aBadDeviceTokenTwiceInARowDeactivatesTheDevice(_ backend: Backend) async throws {
        try await Self.withAPNs(backend) { app, apns, user in
            apns.script(Self.phone, [.status(400, reason: "BadDeviceToken"), .status(400, reason: "BadDeviceToken")])
            let first = try await app.sendNotification("daily_checkin_reminder", key: "one").id
            try await app.runJobs()
            #expect(try await Self.outcomes(app, first) == ["target_suspect"])
            #expect(
                try await app.store.read { tx in try await tx.notifications.activeDevices(of: User.ID(user)) }.count
                    == 1
            )
            let second = try await app.sendNotification("challenge_milestone", key: "two").id
            try await app.runJobs()
            #expect(try await Self.outcomes(app, second) == ["target_suspect"])
            #expect(
                try await app.store.read { tx in try await tx.notifications.activeDevices(of: User.ID(user)) }.isEmpty
            )
            _ = try await app.sendNotification("challenge_milestone", key: "three")
            try await app.runJobs()
            #expect(apns.received.count == 2)
        }
    }

    @Test(arguments: Backend.available)
    func aTooManyRequestsAnswerIsRetriedNoSoonerThanItsRetryAfter(_ backend: Backend) async throws {
        try await Self.withAPNs(backend) { app, apns, _ in
            apns.script(Self.phone, [.status(429, reason: "TooManyRequests", retryAfter: "90")])
            let id = try await app.sendNotification("daily_checkin_reminder").id
            let start = app.clock.now
            try await app.runJobs()
            #expect(try await app.pushDeliveryJob(of: id).runAt == start.addingTimeInterval(90))
            app.clock.advance(by: 89)
            try await app.runJobs()
            #expect(apns.received.count == 1)
            app.clock.advance(by: 1)
            try await app.runJobs()
            #expect(try await Self.outcomes(app, id) == ["retryable", "delivered"])
        }
    }

    @Test(arguments: Backend.available)
    func serverErrorsAreRetriedThreeTimesWithGrowingWaitsThenGivenUp(_ backend: Backend) async throws {
        try await Self.withAPNs(backend) { app, apns, _ in
            apns.script(Self.phone, Array(repeating: .status(500, reason: "InternalServerError"), count: 4))
            let id = try await app.sendNotification("daily_checkin_reminder").id
            let waits = try await app.pushRetryWaits(of: id)
            #expect(apns.received.count == 4)
            #expect(try await app.pushDeliveryJob(of: id).status == .failed)
            #expect(waits.count == 3 && waits == waits.sorted() && Set(waits).count == 3, "waits: \(waits)")
            #expect(try await Self.outcomes(app, id) == Array(repeating: "retryable", count: 4))
        }
    }

    @Test(arguments: Backend.available)
    func aConnectionDroppedMidStreamIsRetriedOnANewConnection(_ backend: Backend) async throws {
        try await Self.withAPNs(backend) { app, apns, _ in
            apns.script(Self.phone, [.dropConnection])
            let id = try await app.sendNotification("daily_checkin_reminder").id
            try await app.runJobs()
            #expect(try await Self.outcomes(app, id) == ["retryable"])
            app.clock.set(try await app.pushDeliveryJob(of: id).runAt.addingTimeInterval(1))
            try await app.runJobs()
            #expect(try await Self.outcomes(app, id) == ["retryable", "delivered"])
            #expect(apns.received.map(\.connection) == [1, 2])
        }
    }

    /// The provider token is reused for 50 minutes and replaced before APNs would call it an hour old; one
    /// APNs calls expired anyway is replaced at once and the message sent.
    @Test(arguments: Backend.available)
    func anAgingProviderTokenIsReplacedBeforeAnHourAndAnExpiredOneAtOnce(_ backend: Backend) async throws {
        try await Self.withAPNs(backend) { app, apns, _ in
            _ = try await app.sendNotification("daily_checkin_reminder", key: "one")
            try await app.runJobs()
            app.clock.advance(by: 49 * 60)
            _ = try await app.sendNotification("challenge_milestone", key: "two")
            try await app.runJobs()
            #expect(apns.providerTokens == 1)
            app.clock.advance(by: 12 * 60)
            let third = try await app.sendNotification("challenge_milestone", key: "three").id
            try await app.runJobs()
            #expect(try await Self.outcomes(app, third) == ["delivered"])
            #expect(apns.providerTokens == 2)

            app.clock.advance(by: 60)
            apns.expireProviderTokens()
            app.clock.advance(by: 60)
            let fourth = try await app.sendNotification("challenge_milestone", key: "four").id
            try await app.runJobs()
            #expect(try await Self.outcomes(app, fourth) == ["delivered"])
            #expect(apns.providerTokens == 3 && apns.received.count == 4)
        }
    }
}
