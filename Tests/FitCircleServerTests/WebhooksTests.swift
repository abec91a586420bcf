import Crypto
import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// Outbound webhooks (issue 24): an app backend subscribed to domain events gets each one signed, a 503 is
/// retried, a refusal fails the delivery, the log shows it and a replay sends it again.
struct WebhooksTests {
    struct Received: Sendable {
        var headers: HTTPFields
        var body: Data
        var payload: Components.Schemas.WebhookPayload {
            get throws { try self.body.decoded() }
        }
    }

    static func steps(_ app: TestApp, _ token: String, _ steps: Int, _ id: String) async throws {
        let body: [String: Any] = [
            "clientEventId": id, "type": "steps", "source": "healthkit", "steps": steps,
            "occurredAt": ISO8601DateFormatter().string(from: app.clock.now),
        ]
        #expect(try await app.request(.post, "/api/activities", token: token, json: body).status == .created)
    }

    static func deliveries(_ log: TestResponse) throws -> [Components.Schemas.WebhookDelivery] {
        try log.decoded(as: Operations.ListWebhookDeliveries.Output.Ok.Body.JsonPayload.self).items
    }

    @Test(arguments: Backend.available)
    func anEndpointGetsItsEventsSignedRetriedLoggedAndReplayable(_ backend: Backend) async throws {
        let received = Mutex<[Received]>([])
        let answers = Mutex<[HTTPResponse.Status]>([.serviceUnavailable])
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 16)
            received.withLock { $0.append(Received(headers: request.headers, body: Data(body.readableBytesView))) }
            return Response(status: answers.withLock { $0.isEmpty ? .noContent : $0.removeFirst() })
        }
        try await Application(router: router, logger: Logger(label: "fake-backend")).test(.live) { client in
            try await withTestApp(backend) { app async throws in
                let ops = try await app.operatorPerson()
                let member = try await app.person("walker@example.com")
                let url = "http://127.0.0.1:\(client.port!)/hook"
                // Members may not; bad fields are named; nothing is registered.
                #expect(
                    try await app.request(
                        .post,
                        "/api/admin/webhooks",
                        token: try await member.token(app),
                        json: ["url": url, "events": ["goal_completed"]]
                    ).status == .forbidden
                )
                let bad = try await app.request(
                    .post,
                    "/api/admin/webhooks",
                    token: try await ops.token(app),
                    json: ["url": "ftp://x", "events": ["goal_completed", "goal_completed"]]
                )
                let badFields = Set(try bad.problem().fields)
                #expect(bad.status == .unprocessableContent && badFields == ["url", "events"], "\(bad.text)")
                let unknown = try await app.request(
                    .post,
                    "/api/admin/webhooks",
                    token: try await ops.token(app),
                    json: ["url": url, "events": ["goal_done"]]
                )
                #expect(unknown.status == .unprocessableContent || unknown.status == .badRequest, "\(unknown.text)")

                let made = try await app.request(
                    .post,
                    "/api/admin/webhooks",
                    token: try await ops.token(app),
                    json: ["url": url, "events": ["goal_completed", "level_up"], "description": "CRM"]
                )
                #expect(made.status == .created, "\(made.text)")
                let registered = try made.decoded(as: Components.Schemas.WebhookEndpoint.self)
                let (endpoint, secret) = (registered.id, try #require(registered.secret))
                let listed = try await app.request(.get, "/api/admin/webhooks", token: try await ops.token(app))
                    .decoded(as: Operations.ListWebhooks.Output.Ok.Body.JsonPayload.self).webhooks
                #expect(listed.count == 1 && listed.first?.secret == nil)

                // The member meets the step goal: one goal_completed (the app opens and syncs are not subscribed).
                try await Self.steps(app, try await member.token(app), 15_000, "walk-1")
                #expect(
                    try await app.request(.get, "/api/goals/daily", token: try await member.token(app)).status == .ok
                )
                #expect(
                    try await app.request(.get, "/api/goals/daily", token: try await member.token(app)).status == .ok
                )
                try await app.runJobs()
                #expect(received.withLock { $0.count } == 1)  // answered 503
                let pending = try await app.request(
                    .get,
                    "/api/admin/webhooks/\(endpoint)/deliveries?status=pending",
                    token: try await ops.token(app)
                )
                let first = try #require(try Self.deliveries(pending).first, "\(pending.text)")
                #expect(first.attempts == 1 && first.lastStatus == 503, "\(first)")
                let firstID = first.id
                let job = try #require(
                    try await app.store.read { tx in try await tx.jobs.job(withDedupeKey: "webhook:\(firstID)") }
                )
                app.clock.set(job.runAt.addingTimeInterval(1))
                try await app.runJobs()
                let sent = received.withLock { $0 }
                let sentPayloads = try sent.map { try $0.payload }
                #expect(sent.count == 2 && Set(sentPayloads.map(\.id)) == [firstID], "the same delivery, twice")
                #expect(sentPayloads.allSatisfy { $0._type == "goal_completed" })
                for delivery in sent {
                    let timestamp = try #require(delivery.headers[HTTPField.Name("FitCircle-Timestamp")!])
                    var signed = Data("\(timestamp).".utf8)
                    signed.append(delivery.body)
                    let expected = HMAC<SHA256>.authenticationCode(
                        for: signed,
                        using: SymmetricKey(data: Data(secret.utf8))
                    ).map { String(format: "%02x", $0) }.joined()
                    #expect(delivery.headers[HTTPField.Name("FitCircle-Signature")!] == "v1=\(expected)")
                    #expect(delivery.headers[HTTPField.Name("FitCircle-Event")!] == "goal_completed")
                    #expect(try delivery.payload.userId == member.id)
                }
                let goal = try #require(sentPayloads.first?.data.additionalProperties)
                #expect(goal["kind"] == .case1("steps") && goal["span"] == .case1("daily"), "\(goal)")
                let delivered = try await app.request(
                    .get,
                    "/api/admin/webhooks/\(endpoint)/deliveries?status=delivered",
                    token: try await ops.token(app)
                )
                let done = try #require(try Self.deliveries(delivered).first, "\(delivered.text)")
                #expect(done.attempts == 2 && done.lastStatus == 204, "\(done)")

                // The next day's goal: a refusal fails it at once; the log shows it; a replay sends it again, the same.
                answers.withLock { $0 = [.badRequest] }
                received.withLock { $0 = [] }
                app.clock.advance(by: 86_400)
                try await Self.steps(app, try await member.token(app), 15_000, "walk-2")
                #expect(
                    try await app.request(.get, "/api/goals/daily", token: try await member.token(app)).status == .ok
                )
                try await app.runJobs()
                let failedLog = try await app.request(
                    .get,
                    "/api/admin/webhooks/\(endpoint)/deliveries?status=failed",
                    token: try await ops.token(app)
                )
                let failed = try #require(try Self.deliveries(failedLog).first, "\(failedLog.text)")
                #expect(failed.attempts == 1 && failed.lastStatus == 400, "\(failed)")
                let failedID = failed.id
                let replayed = try await app.request(
                    .post,
                    "/api/admin/webhooks/\(endpoint)/deliveries/\(failedID)/replay",
                    token: try await ops.token(app)
                )
                #expect(replayed.status == .accepted, "\(replayed.text)")
                #expect(
                    try await app.request(
                        .post,
                        "/api/admin/webhooks/\(endpoint)/deliveries/\(failedID)/replay",
                        token: try await ops.token(app)
                    ).status == .conflict
                )
                try await app.runJobs()
                // That day's goal also took the member up a level: both are subscribed.
                let secondDay = received.withLock { $0 }
                #expect(Set(try secondDay.map { try $0.payload._type }) == ["goal_completed", "level_up"])
                let replays = try secondDay.filter { try $0.payload.id == failedID }
                #expect(replays.count == 2, "refused, then replayed")
                #expect(Set(replays.map(\.body)).count == 1, "the same body")
                let after = try await app.request(
                    .get,
                    "/api/admin/webhooks/\(endpoint)/deliveries?status=delivered",
                    token: try await ops.token(app)
                )
                #expect(try Self.deliveries(after).count == 3, "\(after.text)")
                // The log a page at a time: the same three, newest first, each once.
                var (paged, cursor): ([String], String?) = ([], nil)
                repeat {
                    let page = try await app.request(
                        .get,
                        "/api/admin/webhooks/\(endpoint)/deliveries?status=delivered&limit=1"
                            + (cursor.map { "&cursor=\($0)" } ?? ""),
                        token: try await ops.token(app)
                    ).decoded(as: Operations.ListWebhookDeliveries.Output.Ok.Body.JsonPayload.self)
                    paged += page.items.map(\.id)
                    cursor = page.nextCursor
                } while cursor != nil && paged.count < 10
                #expect(paged == (try Self.deliveries(after).map(\.id)))
                #expect(
                    try await app.request(
                        .post,
                        "/api/admin/webhooks/\(endpoint)/deliveries/nope/replay",
                        token: try await ops.token(app)
                    ).status == .notFound
                )

                // Removal: members may not; then 404, and nothing more is queued for it.
                #expect(
                    try await app.request(
                        .delete,
                        "/api/admin/webhooks/\(endpoint)",
                        token: try await member.token(app)
                    )
                    .status == .forbidden
                )
                #expect(
                    try await app.request(.delete, "/api/admin/webhooks/\(endpoint)", token: try await ops.token(app))
                        .status
                        == .noContent
                )
                #expect(
                    try await app.request(
                        .get,
                        "/api/admin/webhooks/\(endpoint)/deliveries",
                        token: try await ops.token(app)
                    ).status == .notFound
                )
                app.clock.advance(by: 86_400)
                try await Self.steps(app, try await member.token(app), 15_000, "walk-3")
                #expect(
                    try await app.request(.get, "/api/goals/daily", token: try await member.token(app)).status == .ok
                )
                let left = try await app.store.read { tx in try await tx.webhooks.endpoints() }
                #expect(left.isEmpty)
            }
        }
    }

    @Test
    func theAPIListsEveryEventTheServerRecords() {
        #expect(Set(Components.Schemas.ServerEventName.allCases.map(\.rawValue)) == WebhookEndpoint.subscribable)
    }
}
