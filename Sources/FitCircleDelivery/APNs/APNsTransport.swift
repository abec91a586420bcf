public import AsyncHTTPClient
public import FitCircleCore
import Foundation
import NIOCore
import NIOHTTP1

/// Apple Push Notification service over HTTP/2 with token-based auth: `POST {host}/3/device/{token}` with
/// the provider token, `apns-topic`, `apns-push-type`, `apns-priority`, `apns-expiration` and
/// `apns-collapse-id`, and spec 000's payload (`aps.alert`, `badge`, `sound`, `data`). Sandbox devices go to
/// the sandbox host. Sends share the client's one HTTP/2 connection per host, as concurrent streams.
public final class APNsTransport: Sendable {
    private let credentials: APNsCredentials
    /// Xcode builds get sandbox tokens, TestFlight and App Store builds production ones; the other host
    /// answers `BadDeviceToken`.
    private let productionURL: String
    private let sandboxURL: String
    private let call: ProviderCall
    private let tokens: APNsProviderTokens
    private let clock: WallClock

    /// - Parameters:
    ///   - productionURL: `https://api.push.apple.com` in production; a fake provider's in tests.
    ///   - http: a client that may speak HTTP/2 (AsyncHTTPClient negotiates it with ALPN).
    public init(
        credentials: APNsCredentials,
        productionURL: String = "https://api.push.apple.com",
        sandboxURL: String = "https://api.sandbox.push.apple.com",
        http: HTTPClient,
        clock: WallClock
    ) async throws {
        self.credentials = credentials
        (self.productionURL, self.sandboxURL) = (productionURL, sandboxURL)
        self.call = ProviderCall(provider: "apns", http: http, timeout: .seconds(10))
        self.tokens = try await APNsProviderTokens(credentials: credentials, clock: clock)
        self.clock = clock
    }

    /// Sends `message` to one device token; when APNs calls the provider token expired or invalid, a new
    /// one is signed and the message tried once more.
    public func send(_ message: PushMessage, to token: String, in environment: PushDevice.Environment) async
        -> DeliveryAttempt
    {
        let first = await self.attempt(message, to: token, in: environment, refreshing: false)
        guard first.status == 403, case .retryable = first.outcome else { return first }
        return await self.attempt(message, to: token, in: environment, refreshing: true)
    }

    private func attempt(
        _ message: PushMessage,
        to token: String,
        in environment: PushDevice.Environment,
        refreshing: Bool
    ) async -> DeliveryAttempt {
        await self.call.attempt {
            let providerToken = refreshing ? try await self.tokens.refreshed() : try await self.tokens.token()
            let host =
                switch environment {
                case .production: self.productionURL
                case .sandbox: self.sandboxURL
                }
            var request = HTTPClientRequest(url: "\(host)/3/device/\(token)")
            request.method = .POST
            request.headers.add(name: "authorization", value: "bearer \(providerToken)")
            for (name, value) in Self.headers(message, topic: self.credentials.topic) {
                request.headers.add(name: name, value: value)
            }
            request.body = .bytes(ByteBuffer(bytes: try Self.payload(message)))
            return request
        } classify: { response in
            ProviderAnswer.apns(
                status: response.status,
                reason: Self.reason(in: response.body),
                retryAfter: ProviderAnswer.retryAfter(
                    response.headers.first(name: "Retry-After"),
                    now: self.clock.now()
                )
            )
        }
    }

    /// The request headers besides authorization: an alert, sent at once (priority 10), dropped after
    /// `expiresAt` (0: try once, keep nothing), collapsing with others of its collapse id.
    static func headers(_ message: PushMessage, topic: String) -> [(String, String)] {
        var headers = [
            ("apns-topic", topic), ("apns-push-type", "alert"), ("apns-priority", "10"),
            ("apns-expiration", message.expiresAt.map { String(Int($0.timeIntervalSince1970)) } ?? "0"),
        ]
        if let collapseID = message.collapseID { headers.append(("apns-collapse-id", Self.atMost64Bytes(collapseID))) }
        return headers
    }

    /// APNs takes a collapse id of 64 bytes at most; cut whole characters.
    static func atMost64Bytes(_ text: String) -> String {
        var cut = ""
        for character in text {
            guard cut.utf8.count + character.utf8.count <= 64 else { break }
            cut.append(character)
        }
        return cut
    }

    struct Payload: Encodable, Equatable {
        struct APS: Encodable, Equatable {
            var alert: [String: String]
            var badge: Int?
            var sound: String
        }
        var aps: APS
        var data: [String: String]
    }

    static func payload(_ message: PushMessage) throws -> Data {
        try JSONEncoder().encode(
            Payload(
                aps: Payload.APS(
                    alert: ["title": message.title, "body": message.body],
                    badge: message.badge,
                    sound: message.sound
                ),
                data: message.data
            )
        )
    }

    /// The `reason` of an error answer (`{"reason": "BadDeviceToken"}`).
    static func reason(in body: Data) -> String? {
        struct Failure: Decodable { var reason: String }
        return (try? JSONDecoder().decode(Failure.self, from: body))?.reason
    }
}
