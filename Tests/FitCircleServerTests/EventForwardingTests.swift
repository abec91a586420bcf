import FitCircleCore
import FitCircleDelivery
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

/// Forwarding analytics events to an external service in Segment's batch format (issue 24).
struct EventForwardingTests {
    static func pending(_ app: TestApp) async throws -> Int {
        try await app.store.read { tx in try await tx.events.pendingForward(limit: 1_000) }.count
    }

    /// Every event reaches the service once accepted, a 503 is tried again a minute later, and the chain of
    /// runs goes on by itself.
    @Test(arguments: Backend.available)
    func everyEventIsForwardedInSegmentsBatchFormatAndA503IsRetried(_ backend: Backend) async throws {
        let received = Mutex<[(headers: HTTPFields, body: Data)]>([])
        let answers = Mutex<[HTTPResponse.Status]>([.serviceUnavailable])
        let router = Router()
        router.post("/v1/batch") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            received.withLock { $0.append((request.headers, Data(body.readableBytesView))) }
            return Response(status: answers.withLock { $0.isEmpty ? .ok : $0.removeFirst() })
        }
        try await Application(router: router, logger: Logger(label: "fake-analytics")).test(.live) { client in
            let clock = TestClock()
            let transport = AnalyticsForwardTransport(
                url: "http://127.0.0.1:\(client.port!)/v1/batch",
                writeKey: "wk_test",
                http: .shared,
                clock: clock.wallClock
            )
            try await withTestApp(
                backend,
                profile: "astrofriends",
                clock: clock,
                transports: Transports(analytics: transport)
            ) { app async throws in
                let luna = try await app.person("luna@example.com")
                let events = (0..<150).map { index -> [String: Any] in
                    [
                        "clientEventId": "e\(index)", "name": "screen_viewed",
                        "occurredAt": ISO8601DateFormatter().string(from: app.clock.now),
                        "properties": ["screen": "s\(index)"],
                    ]
                }
                #expect(
                    try await app.request(
                        .post,
                        "/api/events",
                        token: try await luna.token(app),
                        json: ["events": events]
                    )
                    .status == .ok
                )
                #expect(try await Self.pending(app) == 150)
                try await app.engine.eventForwarding.start()
                try await app.runJobs()  // the first batch meets a 503: nothing is marked
                #expect(try await Self.pending(app) == 150)
                app.clock.advance(by: 120)
                try await app.runJobs()
                #expect(try await Self.pending(app) == 0)

                let batches = received.withLock { $0 }
                #expect(batches.count == 3)  // the refused one, then 100 and 50
                #expect(
                    batches.allSatisfy {
                        $0.headers[.authorization] == "Basic " + Data("wk_test:".utf8).base64EncodedString()
                    }
                )
                var messages: [[String: Any]] = []
                for (_, body) in batches.dropFirst() {
                    let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
                    #expect(json["sentAt"] is String)
                    messages += json["batch"] as? [[String: Any]] ?? []
                }
                #expect(Set(messages.compactMap { $0["messageId"] as? String }).count == 150)
                let first = try #require(messages.first { ($0["messageId"] as? String) == "\(luna.id):app:e0" })
                #expect(
                    first["type"] as? String == "track" && first["event"] as? String == "screen_viewed"
                        && first["userId"] as? String == luna.id
                )
                #expect((first["properties"] as? [String: Any])?["screen"] as? String == "s0")
                // New events go with the chain's next run.
                #expect(
                    try await app.request(
                        .post,
                        "/api/events",
                        token: try await luna.token(app),
                        json: [
                            "events": [
                                events[0],
                                [
                                    "clientEventId": "late", "name": "screen_viewed",
                                    "occurredAt": ISO8601DateFormatter().string(from: app.clock.now),
                                    "properties": ["screen": "x"],
                                ],
                            ]
                        ]
                    ).status == .ok
                )
                app.clock.advance(by: 61)
                try await app.runJobs()
                #expect(received.withLock { $0.count } == 4)
                #expect(try await Self.pending(app) == 0)
            }
        }
    }

    /// Without forwarding configured nothing waits to be forwarded, and no node takes the job.
    @Test(arguments: Backend.available)
    func withoutForwardingNothingIsMarked(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "astrofriends") { app async throws in
            let luna = try await app.person("luna@example.com")
            let event: [String: Any] = [
                "clientEventId": "e", "name": "screen_viewed",
                "occurredAt": ISO8601DateFormatter().string(from: app.clock.now), "properties": ["screen": "home"],
            ]
            #expect(
                try await app.request(.post, "/api/events", token: try await luna.token(app), json: ["events": [event]])
                    .status == .ok
            )
            #expect(try await Self.pending(app) == 0)
            #expect(app.engine.jobs.handlers[EventForwarding.forward] == nil)
        }
    }
}
