import FitCircleCore
import FitCircleStore
import Hummingbird
import Metrics
import NIOCore
import Prometheus

/// The routes for people and machines that run FitCircle: health, readiness, metrics and the API docs.
struct OperationsRoutes {
    let store: Store
    let registry: PrometheusCollectorRegistry
    let factory: any MetricsFactory
    /// The requests the node works on and its limit: whether it is turning requests away for want of room.
    let inFlight: InFlight
    /// The bearer token `/metrics` asks for; without one, only a scraper on this machine is answered (the
    /// figures tell how busy the node is, its routes and its database: nothing for the public).
    let metricsToken: String?
    let openAPIDocument: String
    let docsPage: String

    func register<Context: RemoteAddressRequestContext>(on router: Router<Context>) {
        router.get("/healthz") { _, _ in Self.text("ok\n") }
        router.get("/readyz") { _, _ in
            if self.inFlight.isSaturated() {
                // Alive, but refusing what comes: a load balancer should send it elsewhere for now.
                var problem = ProblemDocument.unavailable("The server is at capacity and is turning requests away.")
                problem.retryAfter = 1
                throw problem
            }
            do {
                try await self.store.ping()
                return Self.text("ready\n")
            } catch {
                var problem = ProblemDocument.unavailable("The database does not answer.")
                problem.retryAfter = 5
                throw problem
            }
        }
        router.get("/metrics") { request, context in
            try self.requireScraper(request, peer: context.remoteAddress)
            self.recordDatabaseFigures()
            self.recordAdmissionFigures()
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: self.registry.emitToBuffer()))
            )
        }
        router.get("/openapi.yaml") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/yaml; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: self.openAPIDocument))
            )
        }
        router.get("/docs") { _, _ in
            var headers = WebRoutes.pageHeaders
            headers[.contentType] = "text/html; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: self.docsPage)))
        }
    }

    /// With a token, the request must carry it (`Authorization: Bearer …`, compared in constant time);
    /// without one, it must come from this machine (loopback).
    private func requireScraper(_ request: Request, peer: SocketAddress?) throws {
        if let token = self.metricsToken {
            let given =
                request.headers[.authorization].map { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : "" } ?? ""
            guard ConstantTime.equal(given, token) else {
                throw ProblemDocument.unauthenticated("/metrics needs the token the server was given (metrics.token).")
            }
            return
        }
        // A request a proxy forwarded came from elsewhere, whatever the proxy's own address.
        let forwarded = request.headers[.xForwardedFor] != nil
        let local: Bool =
            switch peer {
            case .v4(let address): address.host.hasPrefix("127.")
            case .v6(let address): address.host == "::1"
            case .unixDomainSocket: true
            case nil: true  // in process (the tests' router): no network between
            }
        guard local && !forwarded else {
            throw ProblemDocument.forbidden(
                "/metrics answers this machine only; give the server a metrics.token to scrape it from elsewhere."
            )
        }
    }

    private func recordDatabaseFigures() {
        let dimensions = [("database", self.store.dialect.rawValue)]
        Gauge(label: "fitcircle_db_pool_connections_max", dimensions: dimensions, factory: self.factory)
            .record(self.store.maximumConnections)
        Gauge(label: "fitcircle_db_transactions_in_flight", dimensions: dimensions, factory: self.factory)
            .record(self.store.transactionsInFlight)
        Gauge(label: "fitcircle_db_transactions_completed", dimensions: dimensions, factory: self.factory)
            .record(self.store.transactionsCompleted)
    }

    private func recordAdmissionFigures() {
        Gauge(label: "fitcircle_http_in_flight", factory: self.factory).record(self.inFlight.current)
        Gauge(label: "fitcircle_http_in_flight_limit", factory: self.factory).record(self.inFlight.limit)
    }

    private static func text(_ text: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }
}
