public import AsyncHTTPClient
import Crypto
public import FitCircleCore
public import Foundation
import NIOCore
import NIOHTTP1

/// A signed `POST` of JSON to an app's backend, for notifications an app delivers itself and for the
/// domain events endpoints subscribe to: `FitCircle-Timestamp: <unix seconds>` and
/// `FitCircle-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<body>" under the shared secret>`, so the
/// receiver can tell it came from this server and is fresh (it recomputes it and refuses old timestamps).
public final class WebhookSender: Sendable {
    private let call: ProviderCall
    private let clock: WallClock

    public init(http: HTTPClient, clock: WallClock) {
        self.call = ProviderCall(provider: "webhook", http: http, timeout: .seconds(10))
        self.clock = clock
    }

    /// One attempt, with `headers` beside the signature's.
    public func send(_ body: Data, to url: String, secret: Data, headers: [(String, String)] = []) async -> DeliveryAttempt {
        let key = SymmetricKey(data: secret)
        return await self.call.attempt {
            let timestamp = String(Int(self.clock.now().timeIntervalSince1970))
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "FitCircle-Timestamp", value: timestamp)
            request.headers.add(name: "FitCircle-Signature", value: "v1=" + Self.signature(of: body, at: timestamp, with: key))
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            request.body = .bytes(ByteBuffer(bytes: body))
            return request
        } classify: { response in
            ProviderAnswer.http(status: response.status, retryAfter: ProviderAnswer.retryAfter(response.headers.first(name: "Retry-After"), now: self.clock.now()))
        }
    }

    /// The hex HMAC-SHA256 of `<timestamp>.<body>`.
    static func signature(of body: Data, at timestamp: String, with secret: SymmetricKey) -> String {
        var signed = Data("\(timestamp).".utf8)
        signed.append(body)
        return HMAC<SHA256>.authenticationCode(for: signed, using: secret).map { String(format: "%02x", $0) }.joined()
    }
}

/// For apps that deliver notifications themselves: one signed `POST` of the notification as JSON per
/// notification, to the one URL the server is configured with.
public final class WebhookTransport: Sendable {
    private let url: String
    private let secret: Data
    private let sender: WebhookSender

    public init(url: String, secret: Data, http: HTTPClient, clock: WallClock) {
        self.url = url
        self.secret = secret
        self.sender = WebhookSender(http: http, clock: clock)
    }

    public func send(_ body: Data) async -> DeliveryAttempt {
        await self.sender.send(body, to: self.url, secret: self.secret)
    }
}
