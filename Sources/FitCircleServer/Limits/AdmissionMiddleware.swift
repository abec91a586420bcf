import FitCircleCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// The peer a request came from, for the limits that key on addresses.
enum RequestPeer {
    @TaskLocal static var address: String = "unknown"
}

/// The door of the node, before any work: past `maxInFlight` requests in progress a new one gets 503 with
/// `Retry-After` at once instead of queueing, and an address over its rate gets 429 — the health routes
/// excepted, so a full node still says it is alive. Answers carry `RateLimit-Policy` and `RateLimit`.
struct AdmissionMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let limits: RequestLimits
    let limiter: RateLimiter
    let inFlight: InFlight
    let now: @Sendable () -> Date

    static var exempt: Set<String> { ["/healthz", "/readyz", "/metrics"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.exempt.contains(request.uri.path) { return try await next(request, context) }
        guard self.inFlight.enter(limit: self.limits.maxInFlight) else {
            var problem = ProblemDocument.unavailable("The server is at capacity; try again in a moment.")
            problem.retryAfter = 1
            throw problem
        }
        defer { self.inFlight.leave() }
        let address = self.limits.clientAddress(peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[.xForwardedFor])
        let limit = self.limits.addressLimit
        let decision = self.limiter.decide("address:\(address)", limit, at: self.now())
        guard decision.allowed else { throw ProblemDocument.rateLimited(limit, decision, "Too many requests from this address.") }
        var response = try await RequestPeer.$address.withValue(address) { try await next(request, context) }
        if response.headers[.rateLimitPolicy] == nil {
            response.headers[.rateLimitPolicy] = limit.policyHeader
            response.headers[.rateLimit] = limit.header(decision)
        }
        return response
    }
}

/// Requests this node is working on.
final class InFlight: Sendable {
    private let count = Atomic<Int>(0)

    func enter(limit: Int) -> Bool {
        if self.count.wrappingAdd(1, ordering: .relaxed).newValue > limit {
            self.count.wrappingSubtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    func leave() { self.count.wrappingSubtract(1, ordering: .relaxed) }

    var current: Int { self.count.load(ordering: .relaxed) }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let rateLimitPolicy = Self("RateLimit-Policy")!
    static let rateLimit = Self("RateLimit")!
}

extension ProblemDocument {
    /// 429 with `Retry-After`, `RateLimit-Policy` and `RateLimit`.
    static func rateLimited(_ limit: RateLimit, _ decision: RateLimit.Decision, _ detail: String) -> Self {
        var problem = Self.rateLimited(detail, retryAfter: decision.resetSeconds)
        problem.headers = [.rateLimitPolicy: limit.policyHeader, .rateLimit: limit.header(decision)]
        return problem
    }
}
