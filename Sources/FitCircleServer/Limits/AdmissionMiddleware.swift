import Dispatch
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

/// The door of the node, in two steps around reading the body (`RequestBodyMiddleware` sits between them):
///
/// - `AddressGate`, first: an address over its rate gets 429. While the body then arrives, one address may
///   be sending at most `perAddressBodies` bodies at once (429 past it, `RequestBodyMiddleware`), so that
///   no address holds many connections however slowly it sends; a request whose body is in (or that has
///   none, an event stream included) counts no more.
/// - `AdmissionMiddleware`, once the body is in: past `maxInFlight` requests being worked on, a new one
///   gets 503 with `Retry-After` at once instead of queueing. A body that trickles in holds no place.
///
/// The health routes pass both, so a full node still says it is alive. Answers carry `RateLimit-Policy` and
/// `RateLimit`.
struct AddressGate<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let limits: RequestLimits
    let limiter: RateLimiter
    let now: @Sendable () -> Date

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if AdmissionExempt.paths.contains(request.uri.path) { return try await next(request, context) }
        let address = self.limits.clientAddress(
            peer: context.remoteAddress?.ipAddress,
            forwardedFor: request.headers.value(.xForwardedFor)
        )
        let limit = self.limits.addressLimit
        let decision = self.limiter.decide("address:\(address)", limit, at: self.now())
        guard decision.allowed else {
            throw ProblemDocument.rateLimited(limit, decision, "Too many requests from this address.")
        }
        var response = try await RequestPeer.$address.withValue(address) { try await next(request, context) }
        if !response.headers.contains(.rateLimitPolicy) {
            response.headers[.rateLimitPolicy] = limit.policyHeader
            response.headers[.rateLimit] = limit.header(decision)
        }
        return response
    }
}

/// The operations routes that always answer, however busy the node: neither gate counts them.
enum AdmissionExempt {
    static let paths: Set<String> = ["/healthz", "/readyz", "/metrics"]
}

struct AdmissionMiddleware<Context: RequestContext>: RouterMiddleware {
    let limits: RequestLimits
    let inFlight: InFlight

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if AdmissionExempt.paths.contains(request.uri.path) { return try await next(request, context) }
        guard self.inFlight.enter(limit: self.limits.maxInFlight) else {
            var problem = ProblemDocument.unavailable("The server is at capacity; try again in a moment.")
            problem.retryAfter = 1
            throw problem
        }
        defer { self.inFlight.leave() }
        return try await next(request, context)
    }
}

/// Requests this node is working on, and when it last turned one away for want of room.
final class InFlight: Sendable {
    private let count = Atomic<Int>(0)
    /// The monotonic clock's milliseconds at the last refusal (0: none).
    private let lastRefusal = Atomic<Int>(0)

    private static var milliseconds: Int { Int(DispatchTime.now().uptimeNanoseconds / 1_000_000) + 1 }

    func enter(limit: Int) -> Bool {
        if self.count.wrappingAdd(1, ordering: .relaxed).newValue > limit {
            self.count.wrappingSubtract(1, ordering: .relaxed)
            self.lastRefusal.store(Self.milliseconds, ordering: .relaxed)
            return false
        }
        return true
    }

    func leave() { self.count.wrappingSubtract(1, ordering: .relaxed) }

    var current: Int { self.count.load(ordering: .relaxed) }

    /// Whether the node is turning requests away now: full, and it refused one within `window`. A load
    /// balancer reading `/readyz` then sends the traffic elsewhere.
    func isSaturated(limit: Int, withinMilliseconds window: Int = 2_000) -> Bool {
        let last = self.lastRefusal.load(ordering: .relaxed)
        return self.current >= limit && last > 0 && Self.milliseconds - last <= window
    }
}

/// Bodies each address is sending (`RequestBodyMiddleware`).
final class OpenPerAddress: Sendable {
    private let open = Mutex<[String: Int]>([:])

    func enter(_ address: String, limit: Int) -> Bool {
        self.open.withLock { open in
            let count = open[address, default: 0]
            guard count < limit else { return false }
            open[address] = count + 1
            return true
        }
    }

    func leave(_ address: String) {
        self.open.withLock { open in
            let count = open[address, default: 1] - 1
            open[address] = count > 0 ? count : nil
        }
    }
}

extension ProblemDocument {
    /// 429 with `Retry-After`, `RateLimit-Policy` and `RateLimit`.
    static func rateLimited(_ limit: RateLimit, _ decision: RateLimit.Decision, _ detail: String) -> Self {
        var problem = Self.rateLimited(detail, retryAfter: decision.resetSeconds)
        problem.headers = [.rateLimitPolicy: limit.policyHeader, .rateLimit: limit.header(decision)]
        return problem
    }
}
