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

/// Resolves `Authorization: Bearer …`, or else the web app's session cookie (`WebSession`, with a CSRF
/// token of that session on anything but a read), for every operation the OpenAPI document does not mark
/// public, and holds back users who must finish onboarding from everything but their profile. A bearer
/// token that is a service key (`fcsk_…`) is a backend's: it reaches only the operations of its scopes
/// (`ServiceAccess`).
struct AuthenticationMiddleware: ServerMiddleware {
    let accounts: Accounts
    let serviceKeys: ServiceKeys
    let publicOperations: Set<String>
    let onboardingRequired: Bool
    /// Whether the web app's cookies are `Secure` (and the CSRF cookie `__Host-` prefixed).
    let secureCookies: Bool

    /// The token of `Authorization: Bearer <token>`.
    static func bearerToken(_ header: String) -> String? {
        // Read without splitting or lowercasing (no strings made): the scheme is ASCII letters, compared
        // without case by their low bits.
        guard let space = header.utf8.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        let scheme = header.utf8[..<space]
        let token = header[header.utf8.index(after: space)...]
        guard scheme.elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }), !token.isEmpty else { return nil }
        return String(token)
    }

    /// The bearer token, or the session cookie's when there is no Authorization header.
    static func accessToken(of request: HTTPRequest) throws -> String {
        if let header = request.headerFields.value(.authorization) {
            guard let token = Self.bearerToken(header) else {
                throw DomainError.unauthenticated(reason: "The Authorization header must be 'Bearer <token>'.")
            }
            return token
        }
        guard let token = WebSession.cookie(WebSession.accessCookie, in: request.headerFields) else {
            throw DomainError.unauthenticated(reason: "Send an access token: Authorization: Bearer <token>.")
        }
        return token
    }

    /// A request the session cookie signed in may change something only with the CSRF token of its session.
    private func checkCSRF(of request: HTTPRequest, _ caller: Caller) throws {
        guard !WebSession.isSafe(request.method), request.headerFields[.authorization] == nil else { return }
        guard
            WebSession.hasCSRFToken(
                request.headerFields,
                secure: self.secureCookies,
                { self.accounts.csrf.isValid($0, for: caller.sessionID) }
            )
        else {
            throw DomainError.forbidden(
                reason:
                    "A request signed in by the session cookie must send the \(WebSession.csrfCookieName(secure: self.secureCookies)) cookie's value as X-CSRF-Token."
            )
        }
    }

    /// The caller of a request to an operation that needs one: its token verified, a cookie's write
    /// carrying the CSRF token, onboarding done where the operation needs it. The hot reads (`HotReads`)
    /// sign their requests in here too.
    func caller(of request: HTTPRequest, operationID: String) async throws -> Caller {
        let token = try Self.accessToken(of: request)
        if ServiceKeyToken.isServiceKey(token) {
            let caller = try await self.serviceKeys.authenticate(token)
            try ServiceAccess.decide(operationID, scopes: caller.service?.scopes ?? []).require(
                "operation",
                operationID
            )
            return caller
        }
        let caller = try await self.accounts.authenticate(accessToken: token)
        try self.checkCSRF(of: request, caller)
        guard
            OnboardingAccess.mayCall(
                operationID,
                isOnboarded: caller.user.profile.isOnboarded,
                onboardingRequired: self.onboardingRequired
            )
        else {
            throw DomainError.onboardingRequired
        }
        return caller
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
        let caller = try await self.caller(of: request, operationID: operationID)
        return try await RequestCaller.$current.withValue(caller) {
            try await next(request, body, metadata)
        }
    }
}
