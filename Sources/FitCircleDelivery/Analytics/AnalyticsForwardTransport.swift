public import AsyncHTTPClient
public import FitCircleCore
public import Foundation
import NIOCore
import NIOHTTP1

/// Forwards analytics events to an external service in Segment's HTTP Tracking API batch format — the
/// format Segment, RudderStack, Jitsu and others take at `/v1/batch`: `{"batch": [{"type": "track",
/// "messageId", "userId", "event", "properties", "timestamp"}], "sentAt"}`, authenticated by HTTP Basic
/// with the write key as the user name. `messageId` is the event's identity, so a batch sent twice (a
/// retry after a lost answer) is counted once by a receiver that deduplicates, as these do.
public final class AnalyticsForwardTransport: Sendable {
    private let url: String
    private let writeKey: String
    private let call: ProviderCall
    private let clock: WallClock

    public init(url: String, writeKey: String, http: HTTPClient, clock: WallClock) {
        self.url = url
        self.writeKey = writeKey
        self.call = ProviderCall(provider: "analytics", http: http, timeout: .seconds(15))
        self.clock = clock
    }

    public func send(_ events: [AnalyticsEvent]) async -> DeliveryAttempt {
        await self.call.attempt {
            var request = HTTPClientRequest(url: self.url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(
                name: "Authorization",
                value: "Basic " + Data("\(self.writeKey):".utf8).base64EncodedString()
            )
            request.body = .bytes(ByteBuffer(bytes: try Self.batch(events, sentAt: self.clock.now())))
            return request
        } classify: { response in
            ProviderAnswer.http(
                status: response.status,
                retryAfter: ProviderAnswer.retryAfter(
                    response.headers.first(name: "Retry-After"),
                    now: self.clock.now()
                )
            )
        }
    }

    /// The batch's JSON.
    public static func batch(_ events: [AnalyticsEvent], sentAt: Date) throws -> Data {
        struct Message: Encodable {
            var type = "track"
            var messageId: String
            var userId: String
            var event: String
            var properties: [String: EventValue]
            var timestamp: Date
            var context: [String: [String: String]]
        }
        struct Batch: Encodable {
            var batch: [Message]
            var sentAt: Date
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(
            Batch(
                batch: events.map { event in
                    Message(
                        messageId: "\(event.userID.rawValue):\(event.key)",
                        userId: event.userID.rawValue,
                        event: event.name,
                        properties: event.properties.merging(["localDate": .string(event.localDate.iso)]) { own, _ in
                            own
                        },
                        timestamp: event.occurredAt,
                        context: ["library": ["name": "fitcircle"], "source": ["name": event.source.rawValue]]
                    )
                },
                sentAt: sentAt
            )
        )
    }
}
