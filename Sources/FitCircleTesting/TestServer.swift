import AsyncHTTPClient
import Configuration
public import FitCircleClient
import FitCircleCore
import FitCircleDelivery
public import FitCircleEngine
public import FitCircleServer
public import FitCircleStore
public import Foundation
public import HTTPTypes
import Hummingbird
public import HummingbirdTesting
import Logging
import NIOCore

/// The repository's `profiles/` directory, found from this file so tests run from any working directory.
public let profilesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("profiles")

/// A running FitCircle for one test: its HTTP client, clock, store and fake identity providers.
public struct TestApp: Sendable {
    public let client: any TestClientProtocol
    public let clock: TestClock
    public let store: Store
    public let engine: Engine
    public let google: TestIdentityProvider
    public let apple: TestIdentityProvider
    public static let clientID = "test-client"

    /// Sends a request; `json` is encoded as the body with `Content-Type: application/json`.
    @discardableResult
    public func request(
        _ method: HTTPRequest.Method,
        _ uri: String,
        token: String? = nil,
        json: Any? = nil,
        body: Data? = nil,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        if let token { headers[.authorization] = "Bearer \(token)" }
        var buffer: ByteBuffer?
        if let json {
            // A typed value here (`Components.Schemas…`) is a mistake: JSONSerialization would trap on it.
            guard JSONSerialization.isValidJSONObject(json) else {
                throw TestSetupError("\(type(of: json)) is not a JSON object: send typed values through app.api")
            }
            headers[.contentType] = headers[.contentType] ?? "application/json"
            buffer = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
        } else if let body {
            buffer = ByteBuffer(bytes: body)
        }
        let response = try await self.client.executeRequest(uri: uri, method: method, headers: headers, body: buffer)
        ExchangeRecorder.record(
            method,
            uri,
            request: buffer,
            status: response.status,
            contentType: response.headers[.contentType],
            answer: response.body
        )
        return response
    }

    /// Signs in through `POST /api/auth/dev`: the session, with its tokens and the profile.
    public func devSignIn(_ email: String = "ana@example.com", timeZone: String? = nil) async throws
        -> Components.Schemas.AuthSession
    {
        let answer = try await self.api().signInForDevelopment(body: .json(.init(email: email, timeZone: timeZone)))
        guard case .ok(let session) = answer else { throw TestSetupError("dev sign-in answered \(answer)") }
        return try session.body.json
    }

    /// Signs in and completes onboarding with valid values (named "Ana" unless `displayName` says otherwise);
    /// returns the access token.
    public func onboardedUser(
        _ email: String = "ana@example.com",
        timeZone: String = "Europe/Paris",
        displayName: String? = nil
    ) async throws -> String {
        let token = try await self.devSignIn(email).accessToken
        var profile = Self.validProfile(timeZone: timeZone)
        if let displayName { profile["displayName"] = displayName }
        let response = try await self.request(.put, "/api/user/profile", token: token, json: profile)
        guard response.status == .ok else {
            throw TestSetupError("onboarding answered \(response.status): \(response.text)")
        }
        return token
    }

    public static func validProfile(timeZone: String = "Europe/Paris") -> [String: Any] {
        ["displayName": "Ana", "age": 34, "weight": ["value": 62.5, "unit": "kg"], "timeZone": timeZone]
    }
}

/// Runs `body` against a FitCircle on a fresh database of `backend`, with dev login on and fake Google and
/// Apple providers whose tokens name `TestApp.clientID` as audience (`providerSignIn: false` configures none).
public func withTestApp<Result: Sendable>(
    _ backend: Backend,
    profile profileName: String = "fitcircle",
    devLogin: Bool = true,
    providerSignIn: Bool = true,
    clock: TestClock = TestClock(),
    maxBodyBytes: Int = 6 * 1024 * 1024,
    limits: RequestLimits = .generous,
    transports: Transports = Transports(),
    web: WebSettings = WebSettings(),
    _ body: @Sendable (TestApp) async throws -> Result
) async throws -> Result {
    let google = TestIdentityProvider(.google)
    let apple = TestIdentityProvider(.apple)
    let blobs = TestBlobs()
    defer { blobs.remove() }
    // What a test varies beyond the keys of `testSettings` is set on the configuration.
    var settings = testSettings(profile: profileName, devLogin: devLogin, blobs: blobs)
    if providerSignIn {
        settings["auth.google.clientIds"] = .string(TestApp.clientID)
        settings["auth.apple.clientIds"] = .string(TestApp.clientID)
        settings["auth.google.webClientId"] = web.googleClientID.map(ConfigContent.string)
        settings["auth.apple.webClientId"] = web.appleClientID.map(ConfigContent.string)
    }
    var configuration = try FitCircleConfiguration(settings, workingDirectory: FileManager.default.temporaryDirectory)
    configuration.node.maxBodyBytes = maxBodyBytes
    configuration.node.limits = limits
    configuration.node.web = web
    return try await withStore(backend, now: clock.now) { [configuration] store in
        let node = try await FitCircleNode(
            configuration: configuration,
            store: store,
            clock: clock.wallClock,
            overrides: NodeOverrides(
                jwks: [.google: google.jwksSource, .apple: apple.jwksSource],
                transports: transports.allowingPrivateWebhooks(clock: clock.wallClock)
            )
        )
        let engine = node.engine
        // The node as `serve` builds it, but for its jobs and scheduler, which the tests run themselves on
        // their clock.
        let app = try buildApplication(node: node, services: [.listener], logger: Logger(label: "tests"))
        return try await app.test(.router) { client in
            // On PostgreSQL the node hears its own NOTIFYs, and authenticates from memory only while it does.
            if store.dialect == .postgres {
                for _ in 0..<200 where !store.cacheServes { try await Task.sleep(for: .milliseconds(10)) }
            }
            return try await body(
                TestApp(client: client, clock: clock, store: store, engine: engine, google: google, apple: apple)
            )
        }
    }
}

extension TestResponse {
    public var text: String { String(buffer: self.body) }

    public func jsonObject() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(self.body.readableBytesView)) as? [String: Any]
        else {
            throw TestSetupError("expected a JSON object, got: \(self.text)")
        }
        return object
    }

    /// The `type` of a problem response, after checking it is `application/problem+json`.
    public func problemType() throws -> String? {
        guard self.headers[.contentType] == "application/problem+json" else { return nil }
        return try self.jsonObject()["type"] as? String
    }
}

extension Transports {
    /// The tests' webhook receivers listen on loopback: unless a test gives its own sender, the endpoints
    /// registered may point there (`webhooks.allowPrivateTargets`).
    func allowingPrivateWebhooks(clock: WallClock) -> Transports {
        var transports = self
        if transports.webhookSender == nil {
            transports.webhookSender = WebhookSender(http: .endpoints, clock: clock, allowPrivateTargets: true)
        }
        return transports
    }
}
