import FitCircleAPI
public import FitCircleCore
public import FitCircleEngine
public import FitCircleStore
public import Hummingbird
import Metrics
public import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
public import Prometheus

/// The request context of every FitCircle route: Hummingbird's basic one and the peer's address, which
/// the limits key on.
public struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}

/// Builds every route of the server over an engine: the OpenAPI operations, the operations routes
/// (`/healthz`, `/readyz`, `/metrics`, `/openapi.yaml`, `/docs`), the web app's (`WebRoutes`) and the
/// middleware around them; the hot reads' routes are found before the router's trie (`HotRouting`). `web`: how browsers reach the server (the web session's cookies, the sign-in flows).
public func buildRouter(
    engine: Engine,
    store: Store,
    registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
    maxBodyBytes: Int = 6 * 1024 * 1024,
    limits: RequestLimits = .default,
    web: WebSettings = WebSettings(),
    metricsToken: String? = nil,
    clock: WallClock
) throws -> HotRouting<AppRequestContext> {
    let document = try ServedDocument.load()
    let routes = document.routes
    let factory = PrometheusMetricsFactory(registry: registry)

    let router = Router(context: AppRequestContext.self)
    router.add(middleware: StreamTaskMiddleware(streamPaths: routes.streamPaths))
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: RequestMetricsMiddleware(factory: factory))
    router.add(middleware: PageHeadersMiddleware())
    router.add(middleware: ProblemMiddleware(routes: routes))
    router.add(middleware: NulCharacterMiddleware())
    let limiter = RateLimiter()
    let inFlight = InFlight(limits: limits)
    // The body is read between the address's gate and the node's: a body that trickles in holds a place of
    // its address's small share while it arrives, never one of the node's.
    router.add(middleware: AddressGate(limits: limits, limiter: limiter, now: clock.now))
    router.add(middleware: FullNodeGate(inFlight: inFlight))
    router.add(
        middleware: RequestBodyMiddleware(
            limit: maxBodyBytes,
            anonymousLimit: 64 * 1024,
            perAddress: limits.perAddressBodies,
            sending: OpenPerAddress()
        ) { request in
            guard let token = try? AuthenticationMiddleware.accessToken(of: request) else { return false }
            if ServiceKeyToken.isServiceKey(token) { return (try? await engine.serviceKeys.authenticate(token)) != nil }
            return (try? await engine.accounts.authenticate(accessToken: token)) != nil
        }
    )
    router.add(middleware: AdmissionMiddleware(inFlight: inFlight))
    router.add(middleware: RedirectLocationMiddleware())

    OperationsRoutes(
        store: store,
        registry: registry,
        factory: factory,
        inFlight: inFlight,
        metricsToken: metricsToken,
        openAPIDocument: document.yaml,
        docsPage: document.docsPage
    ).register(on: router)

    WebRoutes(
        accounts: engine.accounts,
        operators: Operators(store: store),
        assets: try WebAssets.load(),
        limits: limits,
        shared: engine.rateLimits,
        web: web,
        now: clock.now
    ).register(on: router)

    let authentication = AuthenticationMiddleware(
        accounts: engine.accounts,
        serviceKeys: engine.serviceKeys,
        publicOperations: routes.publicOperationIDs,
        onboardingRequired: engine.profile.onboarding.required,
        secureCookies: web.secureCookies
    )
    let rateLimits = RateLimitMiddleware(limits: limits, limiter: limiter, shared: engine.rateLimits, now: clock.now)
    let hotReads = HotReads.all(engine: engine)
    router.add(
        middleware: HotReadMiddleware(
            hotReads,
            authentication: authentication,
            rateLimits: rateLimits,
            metrics: factory
        )
    )
    let streams = OpenStreams(perUser: limits.streamsPerUser, perNode: limits.streamsPerNode)
    let registered = KeptRoutes(router: router, paths: Set(hotReads.map(\.path)))
    try API(engine: engine, streams: streams).registerHandlers(
        on: registered,
        // Compact JSON, keys still sorted so that equal answers are equal bytes: the generator's default also
        // pretty-prints, whitespace no client reads.
        configuration: Configuration(
            dateTranscoder: InternetDateTranscoder(),
            jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes]
        ),
        middlewares: [
            DeprecationMiddleware(deprecated: routes.deprecatedOperations),
            authentication, rateLimits, IdempotencyMiddleware(idempotency: engine.idempotency),
            ConditionalGetMiddleware(operations: routes.conditionalOperationIDs),
            InputCheckMiddleware(schemas: routes.inputs),
        ]
    )
    return HotRouting(
        router: router,
        routes: registered.kept,
        crossOrigin: CrossOriginPolicy(origins: web.corsOrigins)
    )
}
