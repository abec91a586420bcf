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
    /// Whether the node is turning requests away for want of room (`InFlight.isSaturated`).
    let isSaturated: @Sendable () -> Bool
    let openAPIDocument: String
    let docsPage: String

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/healthz") { _, _ in Self.text("ok\n") }
        router.get("/readyz") { _, _ in
            if self.isSaturated() {
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
        router.get("/metrics") { _, _ in
            self.recordDatabaseFigures()
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

    private func recordDatabaseFigures() {
        let dimensions = [("database", self.store.dialect.rawValue)]
        Gauge(label: "fitcircle_db_pool_connections_max", dimensions: dimensions, factory: self.factory)
            .record(self.store.maximumConnections)
        Gauge(label: "fitcircle_db_transactions_in_flight", dimensions: dimensions, factory: self.factory)
            .record(self.store.transactionsInFlight)
        Gauge(label: "fitcircle_db_transactions_completed", dimensions: dimensions, factory: self.factory)
            .record(self.store.transactionsCompleted)
    }

    private static func text(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
