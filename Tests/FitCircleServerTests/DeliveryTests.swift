import Crypto
import FitCircleClient
import FitCircleCore
import FitCircleDelivery
import FitCircleEngine
import FitCircleJobs
import FitCircleStore
import FitCircleTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing

/// The outbox delivered through FCM HTTP v1 against a fake FCM and OAuth endpoint on loopback (issue 8):
/// the spec's payload, every answer classified and logged, dead tokens dropped, retries that honour
/// Retry-After and give up after three, an expired access token replaced.
struct DeliveryTests {
    @Test(arguments: Backend.available)
    func aPushGoesToFCMWithTheSpecsPayloadAndIsLogged(_ backend: Backend) async throws {
        try await FakeFCM.withTestApp(backend) { app, fcm, _ in
            let sent = try await app.sendNotification("daily_checkin_reminder")
            let id = sent.id
            try await app.runJobs()
            let logged = try await app.deliveryAttempts(of: id)
            let received = try #require(
                fcm.received.first,
                "attempts: \(logged.map { "\($0.outcome) \($0.reason ?? "")" })"
            )
            #expect(fcm.received.count == 1)
            #expect(received.registrationToken == "android-1")
            #expect(
                received.title == sent.title
                    && received.body == "⏰ Complete your check-in to keep your 14-day streak alive!"
            )
            #expect(
                received.data == [
                    "type": "daily_checkin_reminder", "deep_link": try #require(sent.deepLink), "notification_id": id,
                ]
            )
            #expect(received.androidPriority == "high")
            let attempts = try await app.deliveryAttempts(of: id)
            #expect(
                attempts.map(\.outcome) == ["delivered"] && attempts.first?.provider == "fcm"
                    && attempts.first?.status == 200
            )
            #expect(try await app.pushDeliveryJob(of: id).status == .done)
            #expect(fcm.tokensIssued == 1)
            // The attempt shows in the notification's "why".
            let why = try await app.api(as: "ana@example.com").getNotificationWhy(path: .init(id: id)).ok.body.json
            let delivery = try #require(why.deliveries.first)
            #expect(delivery.outcome == .delivered && delivery.provider == "fcm" && delivery.status == 200)
            #expect(delivery.channel == .push && delivery.attempt == 1)
            // And in the history, with each item's attempts.
            let history = try await app.api(as: "ana@example.com").getNotificationHistory().ok.body.json
            let item = try #require(history.items.first { $0.id == id })
            #expect(item.deliveries?.map(\.outcome) == [.delivered])
        }
    }

    @Test(arguments: Backend.available)
    func anUnregisteredTokenIsDeactivatedAtOnceAndNeverUsedAgain(_ backend: Backend) async throws {
        try await FakeFCM.withTestApp(backend) { app, fcm, user in
            fcm.script("android-1", [FakeFCM.Answer(404, "UNREGISTERED")])
            let first = try await app.sendNotification("daily_checkin_reminder", key: "one").id
            try await app.runJobs()
            #expect(try await app.deliveryAttempts(of: first).map(\.outcome) == ["target_dead"])
            #expect(
                try await app.store.read { tx in try await tx.notifications.activeDevices(of: User.ID(user)) }.isEmpty
            )
            #expect(try await app.pushDeliveryJob(of: first).status == .done)

            // Another notification the same day (a critical type, so no cap stands in the way) goes nowhere.
            let second = try await app.sendNotification("challenge_milestone", key: "two")
            #expect(second.status == .sent)
            try await app.runJobs()
            #expect(fcm.received.count == 1)
        }
    }

    /// A device no delivery reached for 270 days is dropped before its user's next delivery; one in use stays.
    @Test(arguments: Backend.available)
    func aDeviceUnusedFor270DaysExpires(_ backend: Backend) async throws {
        try await FakeFCM.withTestApp(backend) { app, fcm, user in
            _ = try await app.sendNotification("challenge_milestone", key: "one")
            try await app.runJobs()
            app.clock.advance(by: 269 * 86_400)
            _ = try await app.sendNotification("challenge_milestone", key: "two")
            try await app.runJobs()
            #expect(fcm.received.count == 2)  // used on day 269: the clock starts again
            app.clock.advance(by: 269 * 86_400)
            _ = try await app.sendNotification("challenge_milestone", key: "three")
            try await app.runJobs()
            #expect(fcm.received.count == 3)
            app.clock.advance(by: 271 * 86_400)
            _ = try await app.sendNotification("challenge_milestone", key: "four")
            try await app.runJobs()
            #expect(fcm.received.count == 3)
            #expect(
                try await app.store.read { tx in try await tx.notifications.activeDevices(of: User.ID(user)) }.isEmpty
            )
        }
    }

    @Test(arguments: Backend.available)
    func aTooManyRequestsAnswerIsRetriedNoSoonerThanItsRetryAfter(_ backend: Backend) async throws {
        try await FakeFCM.withTestApp(backend) { app, fcm, _ in
            fcm.script("android-1", [FakeFCM.Answer(429, "QUOTA_EXCEEDED", retryAfter: "120")])
            let id = try await app.sendNotification("daily_checkin_reminder").id
            let start = app.clock.now
            try await app.runJobs()
            let waiting = try await app.pushDeliveryJob(of: id)
            #expect(waiting.status == .pending && waiting.runAt == start.addingTimeInterval(120))
            app.clock.advance(by: 119)
            try await app.runJobs()
            #expect(fcm.received.count == 1)
            app.clock.advance(by: 1)
            try await app.runJobs()
            #expect(fcm.received.count == 2)
            #expect(try await app.deliveryAttempts(of: id).map(\.outcome) == ["retryable", "delivered"])
            #expect(try await app.deliveryAttempts(of: id).map(\.attempt) == [1, 2])
        }
    }

    @Test(arguments: Backend.available)
    func serverErrorsAreRetriedThreeTimesWithGrowingWaitsThenGivenUp(_ backend: Backend) async throws {
        try await FakeFCM.withTestApp(backend) { app, fcm, _ in
            fcm.script("android-1", Array(repeating: FakeFCM.Answer(500), count: 5))
            let id = try await app.sendNotification("daily_checkin_reminder").id
            let waits = try await app.pushRetryWaits(of: id)
            #expect(fcm.received.count == 4)
            #expect(try await app.pushDeliveryJob(of: id).status == .failed)
            #expect(waits.count == 3 && waits == waits.sorted() && Set(waits).count == 3, "waits: \(waits)")
            #expect(try await app.deliveryAttempts(of: id).map(\.outcome) == Array(repeating: "retryable", count: 4))
        }
    }

    @Test(arguments: Backend.available)
    func aRefusedAccessTokenIsReplacedAndTheMessageSent(_ backend: Backend) async throws {
        try await FakeFCM.withTestApp(backend) { app, fcm, _ in
            _ = try await app.sendNotification("daily_checkin_reminder", key: "one")
            try await app.runJobs()
            fcm.revokeAccessTokens()
            let second = try await app.sendNotification("challenge_milestone", key: "two").id
            try await app.runJobs()
            #expect(fcm.received.count == 2)
            #expect(fcm.tokensIssued == 2)
            #expect(
                try await app.deliveryAttempts(of: second).filter { $0.channel == .push }.map(\.outcome) == [
                    "delivered"
                ]
            )
        }
    }

    /// An app that delivers itself gets each push notification by webhook, signed with the shared secret
    /// over the timestamp and the body; a 503 is retried. A device with no transport is logged as such.
    @Test(arguments: Backend.available)
    func theWebhookGetsEachPushNotificationSignedAndRetriedAfterA503(_ backend: Backend) async throws {
        let received = Mutex<[(headers: HTTPFields, body: Data)]>([])
        let answers = Mutex<[HTTPResponse.Status]>([.serviceUnavailable])
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 16)
            received.withLock { $0.append((request.headers, Data(body.readableBytesView))) }
            return Response(status: answers.withLock { $0.isEmpty ? .noContent : $0.removeFirst() })
        }
        try await Application(router: router, logger: Logger(label: "fake-webhook")).test(.live) { client in
            let (clock, secret) = (TestClock(), Data(repeating: 7, count: 32))
            let webhook = WebhookTransport(
                url: "http://127.0.0.1:\(client.port!)/hook",
                secret: secret,
                http: .shared,
                clock: clock.wallClock
            )
            try await withTestApp(backend, clock: clock, transports: Transports(webhook: webhook)) { app async throws in
                let token = try await app.onboardedUser()
                _ = try await app.request(
                    .post,
                    "/api/notifications/register",
                    token: token,
                    json: ["platform": "android", "token": "android-1"]
                )
                let id = try await app.sendNotification("daily_checkin_reminder").id
                try await app.runJobs()
                app.clock.set(try await app.pushDeliveryJob(of: id).runAt.addingTimeInterval(1))
                try await app.runJobs()

                let deliveries = received.withLock { $0 }
                #expect(deliveries.count == 2)
                for (headers, body) in deliveries {
                    let timestamp = try #require(headers[HTTPField.Name("FitCircle-Timestamp")!])
                    var signed = Data("\(timestamp).".utf8)
                    signed.append(body)
                    let expected = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: secret)).map {
                        String(format: "%02x", $0)
                    }.joined()
                    #expect(headers[HTTPField.Name("FitCircle-Signature")!] == "v1=\(expected)")
                    let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
                    #expect(json["id"] as? String == id && json["type"] as? String == "daily_checkin_reminder")
                    #expect((json["devices"] as? [[String: Any]])?.first?["token"] as? String == "android-1")
                }
                let attempts = try await app.deliveryAttempts(of: id)
                #expect(attempts.filter { $0.target == "webhook" }.map(\.outcome) == ["retryable", "delivered"])
                #expect(
                    attempts.filter { $0.target != "webhook" }.map { "\($0.outcome): \($0.reason ?? "")" } == [
                        "permanent: FCM is not configured"
                    ]
                )
            }
        }
    }
}
