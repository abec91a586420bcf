import FitCircleCore
import FitCircleEngine
import HTTPTypes
import OpenAPIRuntime

/// The caller of the request being handled, bound by `AuthenticationMiddleware`; handlers read it, never headers.
enum RequestCaller {
    @TaskLocal static var current: Caller?

    /// The authenticated caller; operations that reach a handler without one are public by the spec.
    static func required() throws -> Caller {
        guard let caller = Self.current else { throw DomainError.unauthenticated(reason: "Sign in first.") }
        return caller
    }
}

/// Resolves `Authorization: Bearer …` for every operation the OpenAPI document does not mark public, and
/// holds back users who must finish onboarding from everything but their profile.
struct AuthenticationMiddleware: ServerMiddleware {
    let accounts: Accounts
    let publicOperations: Set<String>
    let onboardingRequired: Bool

    /// The token of `Authorization: Bearer <token>`.
    static func bearerToken(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else { return nil }
        return String(parts[1])
    }

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if self.publicOperations.contains(operationID) {
            return try await next(request, body, metadata)
        }
        guard let header = request.headerFields[.authorization] else {
            throw DomainError.unauthenticated(reason: "Send an access token: Authorization: Bearer <token>.")
        }
        guard let token = Self.bearerToken(header) else {
            throw DomainError.unauthenticated(reason: "The Authorization header must be 'Bearer <token>'.")
        }
        let caller = try await self.accounts.authenticate(accessToken: token)
        guard OnboardingAccess.mayCall(operationID, isOnboarded: caller.user.profile.isOnboarded, onboardingRequired: self.onboardingRequired) else {
            throw DomainError.onboardingRequired
        }
        return try await RequestCaller.$current.withValue(caller) {
            try await next(request, body, metadata)
        }
    }
}
