public import FitCircleCore
public import FitCircleEngine
public import FitCircleStore

/// What the tests and the benchmarks put in place of what the configuration would build.
public struct NodeOverrides: Sendable {
    /// The sign-in providers' key sets (the tests' fake providers).
    public var jwks: [IdentityProvider: any JWKSSource]?
    /// The delivery transports (the tests' recording ones).
    public var transports: Transports?

    public init(jwks: [IdentityProvider: any JWKSSource]? = nil, transports: Transports? = nil) {
        self.jwks = jwks
        self.transports = transports
    }
}

/// The composition root: the one place where a configuration becomes an engine. `serve`, the tests and the
/// benchmarks all assemble their node here, then run it with `buildApplication(node:)`.
public struct FitCircleNode: Sendable {
    public let configuration: FitCircleConfiguration
    public let engine: Engine
    /// The delivery transports in use (`missing` says which channels are off).
    public let transports: Transports

    public var store: Store { self.engine.context.store }
    public var clock: WallClock { self.engine.context.clock }

    /// Assembles the engine over `store`, which the caller opened (from `configuration.store`, or a test's
    /// fresh database) and migrated.
    public init(
        configuration: FitCircleConfiguration,
        store: Store,
        clock: WallClock,
        overrides: NodeOverrides = NodeOverrides()
    ) async throws {
        let transports: Transports
        if let given = overrides.transports {
            transports = given
        } else {
            transports = try await Transports(
                delivery: configuration.delivery,
                analytics: configuration.analytics,
                clock: clock
            )
        }
        self.engine = try await Engine.make(
            store: store,
            profile: try configuration.rules.load(),
            auth: configuration.auth.configuration,
            jwks: overrides.jwks ?? configuration.auth.jwksSources(now: clock.now),
            blobs: configuration.blobs.make(store: store, now: clock.now),
            clock: clock,
            signingKey: configuration.auth.signingKey,
            transports: transports
        )
        self.configuration = configuration
        self.transports = transports
    }
}
