public import FitCircleDelivery
public import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import Logging
import NIOCore
import Synchronization
import _CryptoExtras

/// FCM HTTP v1 and Google's OAuth token endpoint, on loopback, checking what Google checks: the token
/// request's assertion must be signed RS256 by the service account's key, name the account as issuer, the
/// token endpoint as audience and FCM's scope, and be unexpired; a send must carry an access token it issued
/// and not yet expired (else 401), and a body with `message.token`, `notification` and `data`. Each
/// registration token answers what the test scripted for it, in order, then 200.
public final class FakeFCM: Sendable {
    public static let project = "fitcircle-test"

    /// What one send asked for.
    public struct Received: Sendable {
        public var registrationToken: String
        public var title: String?
        public var body: String?
        public var data: [String: String]
        public var androidPriority: String?
        public var at: ContinuousClock.Instant
    }

    /// A scripted answer: an HTTP status, FCM's error code, and `Retry-After` if any.
    public struct Answer: Sendable {
        public var status: Int
        public var errorCode: String?
        public var retryAfter: String?

        public init(_ status: Int, _ errorCode: String? = nil, retryAfter: String? = nil) {
            self.status = status
            self.errorCode = errorCode
            self.retryAfter = retryAfter
        }
    }

    private struct State {
        var accessTokens: Set<String> = []
        var tokensIssued = 0
        var answers: [String: [Answer]] = [:]
        var received: [Received] = []
    }

    private let state = Mutex(State())
    private let verifier = JWTKeyCollection()
    /// Generating an RSA key is slow: every fake shares one.
    private static let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    public let baseURL: String
    /// The fake's clock: the server under test signs with its injected clock, which the fake must share.
    private let now: @Sendable () -> Date

    private init(port: Int, now: @escaping @Sendable () -> Date) async throws {
        self.baseURL = "http://127.0.0.1:\(port)"
        self.now = now
        await self.verifier.add(rsa: try Insecure.RSA.PrivateKey(backing: Self.key).publicKey, digestAlgorithm: .sha256)
    }

    /// The service account whose key file a server would be given.
    public var account: FCMServiceAccount {
        FCMServiceAccount(
            projectID: Self.project,
            clientEmail: "push@\(Self.project).iam.gserviceaccount.com",
            privateKey: Self.key.pkcs8PEMRepresentation,
            tokenURI: "\(self.baseURL)/token"
        )
    }

    /// Makes the next sends to `registrationToken` answer `answers`, in order.
    public func script(_ registrationToken: String, _ answers: [Answer]) {
        self.state.withLock { $0.answers[registrationToken, default: []] += answers }
    }

    /// Every send so far, in order.
    public var received: [Received] { self.state.withLock { $0.received } }

    /// How many access tokens the token endpoint issued.
    public var tokensIssued: Int { self.state.withLock { $0.tokensIssued } }

    /// Revokes every access token issued so far (as when one expires early): the next send gets 401.
    public func revokeAccessTokens() {
        self.state.withLock { $0.accessTokens.removeAll() }
    }

    /// Runs `body` with a fake listening on a free loopback port, telling time by `now`.
    public static func run<Result: Sendable>(
        now: @escaping @Sendable () -> Date,
        _ body: @Sendable (FakeFCM) async throws -> Result
    ) async throws -> Result {
        let fake = Mutex<FakeFCM?>(nil)
        let router = Router()
        router.post("/token") { request, _ in try await fake.withLock { $0! }.token(request) }
        router.post("/v1/projects/\(Self.project)/messages:send") { request, _ in
            try await fake.withLock { $0! }.send(request)
        }
        return try await Application(router: router, logger: Logger(label: "fake-fcm")).test(.live) { client in
            let started = try await FakeFCM(port: client.port!, now: now)
            fake.withLock { $0 = started }
            return try await body(started)
        }
    }

    private func token(_ request: Request) async throws -> Response {
        let form = String(buffer: try await request.body.collect(upTo: 1 << 16))
        var fields: [String: String] = [:]
        for pair in form.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).removingPercentEncoding ?? String($0)
            }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        guard fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let jwt = fields["assertion"],
            let assertion = try? await self.verifier.verify(jwt, as: ServiceAccountAssertion.self),
            assertion.iss.value == self.account.clientEmail, assertion.aud.value == [self.account.tokenURI],
            assertion.scope == "https://www.googleapis.com/auth/firebase.messaging", assertion.exp.value > self.now()
        else {
            return Self.json(.badRequest, ["error": "invalid_grant"])
        }
        let token = "ya29.fake-\(UUID().uuidString)"
        self.state.withLock {
            $0.accessTokens.insert(token)
            $0.tokensIssued += 1
        }
        return Self.json(.ok, ["access_token": token, "expires_in": 3599, "token_type": "Bearer"])
    }

    private func send(_ request: Request) async throws -> Response {
        let bearer = request.headers[.authorization].map { String($0.dropFirst("Bearer ".count)) } ?? ""
        guard self.state.withLock({ $0.accessTokens.contains(bearer) }) else {
            return Self.json(
                .unauthorized,
                [
                    "error": [
                        "code": 401, "status": "UNAUTHENTICATED",
                        "message": "Request had invalid authentication credentials.",
                    ]
                ]
            )
        }
        let body = try await request.body.collect(upTo: 1 << 16)
        guard let json = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any],
            let message = json["message"] as? [String: Any], let token = message["token"] as? String,
            let notification = message["notification"] as? [String: String],
            let data = message["data"] as? [String: String]
        else {
            return Self.json(.badRequest, ["error": ["code": 400, "status": "INVALID_ARGUMENT"]])
        }
        let answer = self.state.withLock { state -> Answer in
            state.received.append(
                Received(
                    registrationToken: token,
                    title: notification["title"],
                    body: notification["body"],
                    data: data,
                    androidPriority: (message["android"] as? [String: String])?["priority"],
                    at: .now
                )
            )
            return state.answers[token]?.isEmpty == false ? state.answers[token]!.removeFirst() : Answer(200)
        }
        guard answer.status != 200 else {
            return Self.json(.ok, ["name": "projects/\(Self.project)/messages/\(UUID().uuidString)"])
        }
        var response = Self.json(
            HTTPResponse.Status(code: answer.status),
            [
                "error": [
                    "code": answer.status, "status": "ERROR",
                    "details": [
                        [
                            "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                            "errorCode": answer.errorCode ?? "INTERNAL",
                        ]
                    ],
                ]
            ]
        )
        if let retryAfter = answer.retryAfter { response.headers[.retryAfter] = retryAfter }
        return response
    }

    private static func json(_ status: HTTPResponse.Status, _ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
