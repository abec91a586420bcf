public import Foundation
public import OpenAPIRuntime
import OpenAPIURLSession

/// One FitCircle server, as an app talks to it: the session, the offline outbox and its sync, and the
/// whole API (`api`) with the token put on and refreshed.
///
/// ```swift
/// let fitCircle = try await FitCircle(.init(baseURL: URL(string: "https://fit.example.com")!,
///                                           storageDirectory: applicationSupport))
/// try await fitCircle.signIn(apple: identityToken, name: "Ana")
/// try await fitCircle.record(.steps(8_432, at: .now))   // kept on the device, sent when online
/// fitCircle.startSyncing()
/// let streak = try await fitCircle.streak()
/// ```
public final class FitCircle: Sendable {
    public struct Configuration: Sendable {
        public var baseURL: URL
        /// Where the outbox (and, without a Keychain, the session) is kept. Give each signed-in person on the
        /// device their own.
        public var storageDirectory: URL
        /// The Keychain on Apple platforms; elsewhere a 0600 file in `storageDirectory`.
        public var sessionStore: any SessionStore
        public var syncPolicy: SyncPolicy
        /// A token this close to its expiry is refreshed before it is sent.
        public var refreshMargin: TimeInterval
        /// The person's zone now, sent with each activity so it counts for the right local day.
        public var timeZone: @Sendable () -> TimeZone
        public var now: @Sendable () -> Date
        /// URLSession by default.
        public var transport: any ClientTransport

        public init(
            baseURL: URL,
            storageDirectory: URL,
            sessionStore: (any SessionStore)? = nil,
            syncPolicy: SyncPolicy = SyncPolicy(),
            refreshMargin: TimeInterval = 60,
            timeZone: @escaping @Sendable () -> TimeZone = { TimeZone.current },
            now: @escaping @Sendable () -> Date = { Date() },
            transport: (any ClientTransport)? = nil
        ) {
            self.baseURL = baseURL
            self.storageDirectory = storageDirectory
            #if canImport(Security)
                self.sessionStore =
                    sessionStore ?? KeychainSessionStore(service: "fitcircle.session", account: baseURL.absoluteString)
            #else
                self.sessionStore =
                    sessionStore ?? FileSessionStore(url: storageDirectory.appendingPathComponent("session.json"))
            #endif
            self.syncPolicy = syncPolicy
            self.refreshMargin = refreshMargin
            self.timeZone = timeZone
            self.now = now
            self.transport = transport ?? URLSessionTransport()
        }
    }

    /// Every operation of the API, typed, signed in as the current person. Refusals are thrown as
    /// `ClientError`s whose `fitCircleProblem` is the server's problem.
    public let api: Client
    /// What waits to be sent.
    public let outbox: Outbox
    let configuration: Configuration
    let authenticator: Authenticator
    let synchronizer: Synchronizer
    let streakKeeper: LocalStreakKeeper
    /// Without the session's middleware: for signing in and refreshing.
    let openClient: Client

    public init(_ configuration: Configuration) async throws {
        self.configuration = configuration
        let open = Client(
            serverURL: configuration.baseURL,
            transport: configuration.transport,
            middlewares: [ProblemMiddleware()]
        )
        self.openClient = open
        self.authenticator = Authenticator(
            store: configuration.sessionStore,
            refreshMargin: configuration.refreshMargin,
            now: configuration.now
        ) { refreshToken in
            try await ClientCall.run {
                StoredSession(try await open.refreshTokens(body: .json(.init(refreshToken: refreshToken))).ok.body.json)
            }
        }
        self.api = Client(
            serverURL: configuration.baseURL,
            transport: configuration.transport,
            middlewares: [
                ProblemMiddleware(), AuthenticationMiddleware(authenticator: self.authenticator),
                ConditionalReadMiddleware(),
            ]
        )
        self.outbox = try Outbox(directory: configuration.storageDirectory)
        self.streakKeeper = LocalStreakKeeper(url: configuration.storageDirectory.appendingPathComponent("streak.json"))
        self.synchronizer = await Synchronizer(
            outbox: self.outbox,
            sender: OutboxSender(client: self.api),
            policy: configuration.syncPolicy,
            now: configuration.now
        )
    }

    // MARK: Calls

    /// Runs `call` on the API with the SDK's errors (`FitCircleProblem`, `FitCircleError`).
    public func call<Result: Sendable>(_ call: (Client) async throws -> Result) async throws -> Result {
        try await ClientCall.run { try await call(self.api) }
    }
}
