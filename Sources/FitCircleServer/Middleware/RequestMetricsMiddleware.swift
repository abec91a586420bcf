import Foundation
import Hummingbird
import Metrics

/// Counts requests and times them by route and status through swift-metrics, into the factory it is given
/// (Prometheus in the server), so tests and several apps in one process never share a global registry.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let factory: any MetricsFactory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        let route = context.endpointPath ?? "unmatched"
        let dimensions = [
            ("method", request.method.rawValue), ("route", route), ("status", String(response.status.code)),
        ]
        Metrics.Counter(label: "http_requests_total", dimensions: dimensions, factory: self.factory).increment()
        Metrics.Timer(label: "http_request_duration_seconds", dimensions: dimensions, factory: self.factory)
            .recordInterval(since: started)
        return response
    }
}

extension Metrics.Timer {
    func recordInterval(since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        self.recordNanoseconds(
            elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        )
    }
}
