public import AsyncHTTPClient
import Crypto
import FitCircleCore
public import FitCircleDelivery
public import Foundation
public import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// APNs on loopback, speaking what Apple speaks: HTTP/2 only (ALPN `h2`) over TLS with a certificate from
/// `TestCertificateAuthority`, one listener for production and one for the sandbox. It checks what APNs
/// checks: `POST /3/device/<64 hex digits>`, a provider token that is an ES256 JWT signed by the team's key
/// (`kid`, `iss`) and less than an hour old, `apns-topic`, `apns-push-type`, `apns-priority`,
/// `apns-expiration`, `apns-collapse-id` and a JSON payload with `aps` of at most 4 KB; errors answer
/// `{"reason": …}` as Apple documents. Each device token answers what the test scripted for it, in order,
/// then 200. The JWT is checked here with CryptoKit's P-256 directly, not with the library that signs it.
public final class FakeAPNs: Sendable {
    public static let topic = "app.fitcircle.test"
    public static let teamID = "FITCIRCLE1"
    public static let keyID = "KEY0000001"

    /// What one send asked for.
    public struct Received: Sendable {
        public var deviceToken: String
        /// `production` or `sandbox`: which listener it reached.
        public var environment: String
        /// Header names lower-cased, pseudo-headers left out.
        public var headers: [String: String]
        public var title: String?
        public var body: String?
        public var badge: Int?
        public var sound: String?
        public var data: [String: String]
        public var providerToken: String
        /// Which TLS connection carried it, counting from 1.
        public var connection: Int
    }

    /// A scripted answer: a status with APNs's reason (and `Retry-After`), or the connection closed
    /// before any answer, as when a peer or a middlebox drops it.
    public enum Answer: Sendable {
        case status(Int, reason: String? = nil, retryAfter: String? = nil)
        case dropConnection
    }

    private struct State {
        var connections = 0
        var answers: [String: [Answer]] = [:]
        var received: [Received] = []
        var providerTokens: Set<String> = []
        var verifiedTokens: [String: Date] = [:]
        var expiredBefore: Date?
    }

    private let state = Mutex(State())
    private static let key = P256.Signing.PrivateKey()
    public let productionURL: String
    public let sandboxURL: String
    /// A client that trusts the fake's certificate; it negotiates HTTP/2 as with Apple.
    public let client: HTTPClient
    /// The fake's clock: the server under test signs with its injected clock, which the fake must share.
    private let now: @Sendable () -> Date
    /// How long each answer waits, as a provider across a network would (benchmarks).
    fileprivate let latency: TimeAmount?

    private init(productionPort: Int, sandboxPort: Int, now: @escaping @Sendable () -> Date, latency: TimeAmount?) {
        self.productionURL = "https://127.0.0.1:\(productionPort)"
        self.sandboxURL = "https://127.0.0.1:\(sandboxPort)"
        self.now = now
        self.latency = latency
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([
            try! NIOSSLCertificate(bytes: Array(TestCertificateAuthority.shared.certificatePEM.utf8), format: .pem)
        ])
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        self.client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// The credentials an app's developer account would give a server.
    public var credentials: APNsCredentials {
        APNsCredentials(
            privateKey: Self.key.pemRepresentation,
            keyID: Self.keyID,
            teamID: Self.teamID,
            topic: Self.topic
        )
    }

    /// Makes the next sends to `deviceToken` answer `answers`, in order.
    public func script(_ deviceToken: String, _ answers: [Answer]) {
        self.state.withLock { $0.answers[deviceToken, default: []] += answers }
    }

    /// Every send that reached the checks, in order.
    public var received: [Received] { self.state.withLock { $0.received } }
    /// TLS connections accepted so far.
    public var connections: Int { self.state.withLock { $0.connections } }
    /// Distinct provider tokens that passed the checks.
    public var providerTokens: Int { self.state.withLock { $0.providerTokens.count } }

    /// From now on, provider tokens signed before this instant are refused as expired (as when Apple's
    /// clock disagrees with ours).
    public func expireProviderTokens() {
        let now = self.now()
        self.state.withLock { $0.expiredBefore = now }
    }

    /// Runs `body` with the fake listening on two free loopback ports, telling time by `now`.
    public static func run<Result: Sendable>(
        now: @escaping @Sendable () -> Date,
        latency: TimeAmount? = nil,
        _ body: @Sendable (FakeAPNs) async throws -> Result
    ) async throws -> Result {
        let tls = {
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: [
                    .certificate(
                        try! NIOSSLCertificate(bytes: Array(TestCertificateAuthority.shared.leafPEM.utf8), format: .pem)
                    )
                ],
                privateKey: .privateKey(
                    try! NIOSSLPrivateKey(bytes: Array(TestCertificateAuthority.shared.leafKeyPEM.utf8), format: .pem)
                )
            )
            tls.applicationProtocols = ["h2"]
            return tls
        }()
        let context = try NIOSSLContext(configuration: tls)
        let fake = Mutex<FakeAPNs?>(nil)
        func listen(_ environment: String) async throws -> any Channel {
            try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    let fake = fake.withLock { $0! }
                    let connection = fake.state.withLock { state in
                        state.connections += 1
                        return state.connections
                    }
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                        _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                            mode: .server,
                            connectionConfiguration: .init(),
                            streamConfiguration: .init()
                        ) { stream in
                            stream.eventLoop.makeCompletedFuture {
                                try stream.pipeline.syncOperations.addHandler(
                                    StreamHandler(fake: fake, environment: environment, connection: connection)
                                )
                            }
                        }
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
        }
        let production = try await listen("production")
        let sandbox = try await listen("sandbox")
        let started = FakeAPNs(
            productionPort: production.localAddress!.port!,
            sandboxPort: sandbox.localAddress!.port!,
            now: now,
            latency: latency
        )
        fake.withLock { $0 = started }
        defer {
            production.close(promise: nil)
            sandbox.close(promise: nil)
        }
        do {
            let result = try await body(started)
            try await started.client.shutdown()
            return result
        } catch {
            try? await started.client.shutdown()
            throw error
        }
    }

    /// One request's answer: the checks in APNs's order, then the script.
    fileprivate func answer(headers: HPACKHeaders, body: ByteBuffer, environment: String, connection: Int) -> Answer {
        func fail(_ status: Int, _ reason: String) -> Answer { .status(status, reason: reason) }
        guard headers.first(name: ":method") == "POST" else { return fail(405, "MethodNotAllowed") }
        let path = headers.first(name: ":path") ?? ""
        guard path.hasPrefix("/3/device/") else { return fail(404, "BadPath") }
        let deviceToken = String(path.dropFirst("/3/device/".count))
        guard let authorization = headers.first(name: "authorization"), authorization.lowercased().hasPrefix("bearer ")
        else {
            return fail(403, "MissingProviderToken")
        }
        let providerToken = String(authorization.dropFirst("bearer ".count))
        // A token verified once is known by its text, as APNs keeps it (verifying each time costs the
        // shared cores of a benchmark more than the send).
        let (known, expiredBefore) = self.state.withLock { ($0.verifiedTokens[providerToken], $0.expiredBefore) }
        guard let issuedAt = known ?? Self.verifiedIssuedAt(providerToken) else {
            return fail(403, "InvalidProviderToken")
        }
        if known == nil { self.state.withLock { $0.verifiedTokens[providerToken] = issuedAt } }
        if self.now().timeIntervalSince(issuedAt) > 3_600 || expiredBefore.map({ issuedAt <= $0 }) == true {
            return fail(403, "ExpiredProviderToken")
        }
        guard let topic = headers.first(name: "apns-topic") else { return fail(400, "MissingTopic") }
        guard topic == Self.topic else { return fail(400, "TopicDisallowed") }
        guard ["alert", "background"].contains(headers.first(name: "apns-push-type")) else {
            return fail(400, "InvalidPushType")
        }
        if let priority = headers.first(name: "apns-priority"), !["5", "10"].contains(priority) {
            return fail(400, "BadPriority")
        }
        if let expiration = headers.first(name: "apns-expiration"), Int(expiration) == nil {
            return fail(400, "BadExpirationDate")
        }
        if let collapseID = headers.first(name: "apns-collapse-id"), collapseID.utf8.count > 64 {
            return fail(400, "BadCollapseId")
        }
        guard body.readableBytes <= 4_096 else { return fail(413, "PayloadTooLarge") }
        guard let payload = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any],
            let aps = payload["aps"] as? [String: Any]
        else { return fail(400, "PayloadEmpty") }
        guard deviceToken.count == 64, deviceToken.allSatisfy(\.isHexDigit) else { return fail(400, "BadDeviceToken") }
        let alert = aps["alert"] as? [String: String]
        var named: [String: String] = [:]
        for (name, value, _) in headers where !name.hasPrefix(":") { named[name.lowercased()] = value }
        let received = Received(
            deviceToken: deviceToken,
            environment: environment,
            headers: named,
            title: alert?["title"],
            body: alert?["body"],
            badge: aps["badge"] as? Int,
            sound: aps["sound"] as? String,
            data: payload["data"] as? [String: String] ?? [:],
            providerToken: providerToken,
            connection: connection
        )
        return self.state.withLock { state in
            state.received.append(received)
            state.providerTokens.insert(providerToken)
            return state.answers[deviceToken]?.isEmpty == false
                ? state.answers[deviceToken]!.removeFirst() : .status(200)
        }
    }

    /// The token's `iat` when it is an ES256 JWT from the team's key (`kid`, `iss`), else nil.
    static func verifiedIssuedAt(_ jwt: String) -> Date? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Data(base64URLEncoded: parts[0]),
            let claimsData = Data(base64URLEncoded: parts[1]),
            let signatureData = Data(base64URLEncoded: parts[2]),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any],
            header["alg"] as? String == "ES256", header["kid"] as? String == Self.keyID,
            claims["iss"] as? String == Self.teamID,
            let issuedAt = (claims["iat"] as? NSNumber)?.doubleValue,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
            Self.key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { return nil }
        return Date(timeIntervalSince1970: issuedAt)
    }
}

/// One HTTP/2 stream: gathers the request's headers and body, then writes the fake's answer.
private final class StreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private let fake: FakeAPNs
    private let environment: String
    private let connection: Int
    private var headers = HPACKHeaders()
    private var body = ByteBuffer()

    init(fake: FakeAPNs, environment: String, connection: Int) {
        self.fake = fake
        self.environment = environment
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .headers(let frame):
            self.headers = frame.headers
            if frame.endStream { self.respond(context: context) }
        case .data(let frame):
            if case .byteBuffer(var buffer) = frame.data { self.body.writeBuffer(&buffer) }
            if frame.endStream { self.respond(context: context) }
        default:
            break
        }
    }

    private func respond(context: ChannelHandlerContext) {
        let answer = self.fake.answer(
            headers: self.headers,
            body: self.body,
            environment: self.environment,
            connection: self.connection
        )
        guard case .status(let status, let reason, let retryAfter) = answer else {
            context.channel.parent?.close(promise: nil)
            return
        }
        var headers = HPACKHeaders([(":status", String(status)), ("apns-id", UUID().uuidString)])
        if let retryAfter { headers.add(name: "retry-after", value: retryAfter) }
        let write = {
            guard let reason else {
                context.writeAndFlush(
                    self.wrapOutboundOut(.headers(.init(headers: headers, endStream: true))),
                    promise: nil
                )
                return
            }
            headers.add(name: "content-type", value: "application/json")
            context.write(self.wrapOutboundOut(.headers(.init(headers: headers))), promise: nil)
            let json = ByteBuffer(string: #"{"reason":"\#(reason)"}"#)
            context.writeAndFlush(
                self.wrapOutboundOut(.data(.init(data: .byteBuffer(json), endStream: true))),
                promise: nil
            )
        }
        if let delay = self.fake.latency {
            context.eventLoop.assumeIsolated().scheduleTask(in: delay) { write() }
        } else {
            write()
        }
    }
}
