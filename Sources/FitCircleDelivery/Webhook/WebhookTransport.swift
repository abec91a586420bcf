public import AsyncHTTPClient
import Crypto
import Dispatch
public import FitCircleCore
public import Foundation
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A signed `POST` of JSON to an app's backend, for notifications an app delivers itself and for the
/// domain events endpoints subscribe to: `FitCircle-Timestamp: <unix seconds>` and
/// `FitCircle-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<body>" under the shared secret>`, so the
/// receiver can tell it came from this server and is fresh (it recomputes it and refuses old timestamps).
///
/// Unless `allowsPrivateTargets`, a URL whose host resolves to this machine or a private network is not
/// called (a permanent failure): a name registered as public may point anywhere later.
public final class WebhookSender: Sendable {
    private let call: ProviderCall
    private let clock: WallClock
    public let allowsPrivateTargets: Bool

    public init(http: HTTPClient, clock: WallClock, allowPrivateTargets: Bool = false) {
        self.call = ProviderCall(provider: "webhook", http: http, timeout: .seconds(10))
        self.clock = clock
        self.allowsPrivateTargets = allowPrivateTargets
    }

    /// One attempt, with `headers` beside the signature's.
    public func send(_ body: Data, to url: String, secret: Data, headers: [(String, String)] = []) async
        -> DeliveryAttempt
    {
        if !self.allowsPrivateTargets, let host = URL(string: url)?.host, await Self.resolvesPrivately(host) {
            return DeliveryAttempt(
                provider: "webhook",
                outcome: .permanent(reason: "\(host) is on this machine or a private network"),
                status: nil,
                latencyMilliseconds: 0
            )
        }
        let key = SymmetricKey(data: secret)
        return await self.call.attempt {
            let timestamp = String(Int(self.clock.now().timeIntervalSince1970))
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "FitCircle-Timestamp", value: timestamp)
            request.headers.add(
                name: "FitCircle-Signature",
                value: "v1=" + Self.signature(of: body, at: timestamp, with: key)
            )
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            request.body = .bytes(ByteBuffer(bytes: body))
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

    /// Whether `host` is, or resolves to, an address on this machine or a private network.
    static func resolvesPrivately(_ host: String) async -> Bool {
        if PrivateAddress.isPrivate(host: host) { return true }
        // getaddrinfo blocks: off the cooperative pool.
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: Self.addresses(of: host).contains(where: PrivateAddress.isPrivate(address:))
                )
            }
        }
    }

    /// The addresses `host` resolves to, as bytes (none when it does not resolve: the call then fails as usual).
    static func addresses(of host: String) -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var found: [[UInt8]] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let address = entry.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                        found.append(withUnsafeBytes(of: v4.pointee.sin_addr) { Array($0) })
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                        found.append(withUnsafeBytes(of: v6.pointee.sin6_addr) { Array($0) })
                    }
                default:
                    break
                }
            }
            cursor = entry.pointee.ai_next
        }
        return found
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
        // The server's own configuration names this URL: a backend on its host or network is its operator's choice.
        self.sender = WebhookSender(http: http, clock: clock, allowPrivateTargets: true)
    }

    public func send(_ body: Data) async -> DeliveryAttempt {
        await self.sender.send(body, to: self.url, secret: self.secret)
    }
}
