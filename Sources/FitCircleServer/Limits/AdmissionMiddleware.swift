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
/// - `AdmissionMiddleware`, once the body is in: past the node's limit on requests being worked on (adaptive,
///   `InFlight`), a new one gets 503 with `Retry-After` at once instead of queueing. A body that trickles in
///   holds no place.
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

/// Before the body is read: a node already at its limit refuses at once, without reading the body or
/// authenticating (a refusal that cost as much as an answer would take the room it makes). It takes no place:
/// `AdmissionMiddleware` does, once the body is in.
struct FullNodeGate<Context: RequestContext>: RouterMiddleware {
    let inFlight: InFlight

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if !AdmissionExempt.paths.contains(request.uri.path), !self.inFlight.hasRoom() {
            throw ProblemDocument.atCapacity
        }
        return try await next(request, context)
    }
}

struct AdmissionMiddleware<Context: RequestContext>: RouterMiddleware {
    let inFlight: InFlight

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if AdmissionExempt.paths.contains(request.uri.path) { return try await next(request, context) }
        guard let admission = self.inFlight.enter() else { throw ProblemDocument.atCapacity }
        defer { self.inFlight.leave(admission) }
        return try await next(request, context)
    }
}

/// Requests this node is working on, the limit on them, and when it last turned one away for want of room.
/// The limit is `ConcurrencyLimit`'s, fed with the latency of every request admitted, between
/// `limits.minInFlight` and `limits.maxInFlight`; equal, they hold it fixed.
final class InFlight: Sendable {
    /// A request let in: when, and whether while the limit probed for the node's unqueued latency.
    struct Admission {
        let at: UInt64
        let duringProbe: Bool
    }

    private let count = Atomic<Int>(0)
    /// The limit in force, published by `adaptive` as it moves.
    private let limitNow: Atomic<Int>
    private let probing = Atomic<Bool>(false)
    /// The adaptive limit (nil: fixed at `maxInFlight`).
    private let adaptive: Mutex<ConcurrencyLimit?>
    private let isAdaptive: Bool
    /// The monotonic clock's milliseconds at the last refusal (0: none).
    private let lastRefusal = Atomic<Int>(0)

    init(limits: RequestLimits) {
        if limits.minInFlight < limits.maxInFlight {
            let limit = ConcurrencyLimit(
                .init(minimum: limits.minInFlight, maximum: limits.maxInFlight),
                now: DispatchTime.now().uptimeNanoseconds
            )
            self.adaptive = Mutex(limit)
            self.isAdaptive = true
            self.limitNow = Atomic(limit.limit)
        } else {
            self.adaptive = Mutex(nil)
            self.isAdaptive = false
            self.limitNow = Atomic(limits.maxInFlight)
        }
    }

    private static var milliseconds: Int { Int(DispatchTime.now().uptimeNanoseconds / 1_000_000) + 1 }

    /// Whether a request arriving now could be admitted (a refusal is remembered as `enter`'s is).
    func hasRoom() -> Bool {
        guard self.current >= self.limit else { return true }
        self.lastRefusal.store(Self.milliseconds, ordering: .relaxed)
        return false
    }

    func enter() -> Admission? {
        if self.count.wrappingAdd(1, ordering: .relaxed).newValue > self.limitNow.load(ordering: .relaxed) {
            self.count.wrappingSubtract(1, ordering: .relaxed)
            self.lastRefusal.store(Self.milliseconds, ordering: .relaxed)
            return nil
        }
        return Admission(
            at: self.isAdaptive ? DispatchTime.now().uptimeNanoseconds : 0,
            duringProbe: self.probing.load(ordering: .relaxed)
        )
    }

    func leave(_ admission: Admission) {
        let inFlight = self.count.wrappingSubtract(1, ordering: .relaxed).oldValue
        guard self.isAdaptive else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let (limit, probing) = self.adaptive.withLock { adaptive in
            adaptive?.record(admittedAt: admission.at, duringProbe: admission.duringProbe, inFlight: inFlight, now: now)
            return (adaptive?.limit ?? 0, adaptive?.isProbing ?? false)
        }
        self.limitNow.store(limit, ordering: .relaxed)
        self.probing.store(probing, ordering: .relaxed)
    }

    var current: Int { self.count.load(ordering: .relaxed) }

    /// The requests this node may work on at once now (`fitcircle_http_in_flight_limit`).
    var limit: Int { self.limitNow.load(ordering: .relaxed) }

    /// Whether the node is turning requests away now: full, and it refused one within `window`. A load
    /// balancer reading `/readyz` then sends the traffic elsewhere.
    func isSaturated(withinMilliseconds window: Int = 2_000) -> Bool {
        let last = self.lastRefusal.load(ordering: .relaxed)
        return self.current >= self.limit && last > 0 && Self.milliseconds - last <= window
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
    /// 503 with `Retry-After`: the node works on as much as it can.
    static var atCapacity: Self {
        var problem = Self.unavailable("The server is at capacity; try again in a moment.")
        problem.retryAfter = 1
        return problem
    }

    /// 429 with `Retry-After`, `RateLimit-Policy` and `RateLimit`.
    static func rateLimited(_ limit: RateLimit, _ decision: RateLimit.Decision, _ detail: String) -> Self {
        var problem = Self.rateLimited(detail, retryAfter: decision.resetSeconds)
        problem.headers = [.rateLimitPolicy: limit.policyHeader, .rateLimit: limit.header(decision)]
        return problem
    }
}
