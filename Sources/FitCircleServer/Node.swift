import FitCircleCore
import FitCircleEngine
import FitCircleJobs
public import Hummingbird
public import Logging
public import NIOCore
public import Prometheus
import ServiceLifecycle
import Synchronization

/// What a node runs beside its HTTP server.
public struct NodeServices: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Hears the other nodes (`Engine.listen`): circle events and inbox wakes.
    public static let listener = NodeServices(rawValue: 1)
    /// Runs due jobs (`JobRunner`, every handler of `Engine.jobs`).
    public static let jobs = NodeServices(rawValue: 2)
    /// Queues the zone jobs each minute (`ZoneScheduler`, `Engine.jobs`).
    public static let scheduler = NodeServices(rawValue: 4)
    public static let all: NodeServices = [.listener, .jobs, .scheduler]
}

/// One FitCircle node, as `serve` runs it and the tests drive it: the routes (`buildRouter`) and, as
/// services of the same lifecycle, the listener, the job runner and the scheduler. On SIGTERM the server
/// stops taking connections and lets requests finish first; then the scheduler and the listener are
/// cancelled, and the job runner finishes the job it is running and gives back the ones it claimed but had
/// not started (a node that dies instead leaves them to its leases' expiry).
public func buildApplication(
    node: FitCircleNode,
    services: NodeServices = .all,
    registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
    logger: Logger,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let (engine, store, clock, settings) = (node.engine, node.store, node.clock, node.configuration.node)
    let router = try buildRouter(
        engine: engine,
        store: store,
        registry: registry,
        maxBodyBytes: settings.maxBodyBytes,
        limits: settings.limits,
        web: settings.web,
        metricsToken: settings.metricsToken,
        clock: clock
    )
    // Shut down in the reverse order: the server (Hummingbird's, last) first, then these from the end.
    var background: [any Service] = []
    if services.contains(.listener) {
        background.append(
            BackgroundService { await cancelWhenGracefulShutdown { await engine.listen(to: store, logger: logger) } }
        )
    }
    if services.contains(.jobs) {
        let runner = JobRunner(
            store: store,
            handlers: engine.jobs.handlers,
            batches: engine.jobs.batches,
            clock: clock,
            logger: logger
        )
        background.append(
            BackgroundService {
                let stopping = StopFlag()
                // The analytics forwarder's chain of runs, if forwarding is configured (already queued: nothing).
                do { try await engine.eventForwarding.start() } catch {
                    logger.error("the analytics forwarder did not start: \(error)")
                }
                await withGracefulShutdownHandler {
                    await runner.run { stopping.isSet }
                } onGracefulShutdown: {
                    stopping.set()
                }
            }
        )
    }
    if services.contains(.scheduler) {
        let scheduler = ZoneScheduler(store: store, schedules: engine.jobs.schedules, clock: clock, logger: logger)
        background.append(BackgroundService { await cancelWhenGracefulShutdown { await scheduler.run() } })
    }
    return Application(
        router: router,
        server: .fitCircle(settings.connectionDeadlines),
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "FitCircle"),
        services: background,
        onServerRunning: onServerRunning,
        logger: logger
    )
}

/// Set once the node is stopping.
private final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { self.value.load(ordering: .relaxed) }
    func set() { self.value.store(true, ordering: .relaxed) }
}

/// Work that runs as long as the node, as a service of its lifecycle. Work that ends early (the listener
/// on SQLite has nothing to hear) waits for the node to stop: a service that returns stops the node.
private struct BackgroundService: Service {
    let work: @Sendable () async -> Void

    init(_ work: @escaping @Sendable () async -> Void) {
        self.work = work
    }

    func run() async throws {
        await self.work()
        try? await gracefulShutdown()
    }
}
