import FitCircleCore
import FitCircleEngine
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Per-user and per-operation rates, where the operation and the caller are known (after authentication):
/// each signed-in user has a budget of requests a minute (this node's count, `RateLimiter`), and sign-in,
/// refresh, joining and inviting have budgets of their own (per address before sign-in, per user after),
/// counted by all nodes together (`SharedRateLimits`) so that spreading attempts over nodes gains nothing.
struct RateLimitMiddleware: ServerMiddleware {
    let limits: RequestLimits
    let limiter: RateLimiter
    let shared: SharedRateLimits
    let now: @Sendable () -> Date

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let (limit, decision) = try await self.admit(RequestCaller.current, operationID: operationID) else {
            return try await next(request, body, metadata)
        }
        let headers = Self.headers(limit, decision)
        do {
            var (response, responseBody) = try await next(request, body, metadata)
            response.headerFields.append(contentsOf: headers)
            return (response, responseBody)
        } catch {
            throw CountedFailure(underlying: error, headers: headers)
        }
    }

    /// What an answer says of the narrowest limit its request was counted against.
    static func headers(_ limit: RateLimit, _ decision: RateLimit.Decision) -> HTTPFields {
        [.rateLimitPolicy: limit.policyHeader, .rateLimit: limit.header(decision)]
    }

    /// Counts the request against the caller's budget (the address's before sign-in) and the operation's,
    /// throwing the 429 problem of the first one spent; the narrowest limit checked is the one the answer
    /// shows (`RateLimit-Policy`, `RateLimit`). The hot reads (`HotReads`) are counted here too.
    func admit(_ caller: Caller?, operationID: String) async throws -> (RateLimit, RateLimit.Decision)? {
        let who = caller.map { "user:\($0.userID.rawValue)" } ?? "address:\(RequestPeer.address)"
        var shown: (RateLimit, RateLimit.Decision)?
        if caller != nil {
            let limit = self.limits.userLimit
            let decision = self.limiter.decide(who, limit, at: self.now())
            guard decision.allowed else {
                throw ProblemDocument.rateLimited(limit, decision, "Too many user requests; slow down.")
            }
            shown = (limit, decision)
        }
        if let limit = self.limits.operationLimit(operationID) {
            let decision = try await self.shared.decide(who, limit)
            guard decision.allowed else {
                throw ProblemDocument.rateLimited(limit, decision, "Too many \(limit.name) requests; slow down.")
            }
            shown = (limit, decision)
        }
        return shown
    }
}
