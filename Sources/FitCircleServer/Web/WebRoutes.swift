import FitCircleCore
import FitCircleEngine
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The web app for members (`/`, `/app/…`) and the operator console (`/admin/…`): static pages and ES
/// modules (`WebAssets`) that call the same public API an app does, signed in by the session cookie of
/// `WebSession`, whose routes (`/web/session…`) are the only ones of their own.
struct WebRoutes {
    let accounts: Accounts
    let operators: Operators
    let assets: WebAssets
    /// The budgets of the API's sign-in and refresh operations, which the session routes share.
    let limits: RequestLimits
    let shared: SharedRateLimits
    let web: WebSettings
    let now: @Sendable () -> Date

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/") { request, _ in await self.page("index.html", request) }
        router.get("/app") { request, _ in await self.page("app.html", request) }
        router.get("/app/**") { request, _ in await self.page("app.html", request) }
        router.get("/admin") { request, _ in try await self.console(request) }
        router.get("/admin/**") { request, _ in try await self.console(request) }
        router.get("/assets/**") { request, _ in try self.asset(request) }

        router.get("/web/session") { _, _ in try self.signInMethods() }
        router.post("/web/session") { request, _ in try await self.signIn(request) }
        router.post("/web/session/refresh") { request, _ in try await self.refresh(request) }
        router.post("/web/session/sign-out") { request, _ in try await self.signOut(request) }
        // Google's and Apple's web sign-in (WebRoutes+Providers).
        router.get("/web/auth/:provider") { request, context in
            try self.startProviderSignIn(request, provider: context.parameters.get("provider") ?? "")
        }
        router.post("/web/auth/:provider/callback") { request, context in
            await self.finishProviderSignIn(request, provider: context.parameters.get("provider") ?? "")
        }
    }

    /// Cookies carry `Secure` (the server is reached over TLS, as its public URL says).
    var secureCookies: Bool { self.web.secureCookies }

    // MARK: Pages

    /// A page, with a CSRF cookie of the browser's session (or of none) set when the browser lacks one: a
    /// first visit, a token of a session that ended, one this server did not make.
    private func page(_ name: String, _ request: Request, status: HTTPResponse.Status = .ok) async -> Response {
        guard let file = self.assets.file(name) else { return Response(status: .notFound) }
        var headers = Self.pageHeaders
        let session = await self.session(of: request)
        if !(WebSession.csrfToken(in: request.headers, secure: self.secureCookies).map {
            self.accounts.csrf.isValid($0, for: session)
        } ?? false) {
            headers.append(
                HTTPField(
                    name: .setCookie,
                    value: WebSession.csrfCookie(self.accounts.csrf.token(for: session), secure: self.secureCookies)
                )
            )
        }
        headers[.contentType] = file.contentType
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }

    /// The console's page, to operators only: anyone else is sent to sign in, or refused.
    private func console(_ request: Request) async throws -> Response {
        let caller: Caller
        do {
            caller = try await self.accounts.authenticate(
                accessToken: try AuthenticationMiddleware.accessToken(of: request.head)
            )
        } catch {
            let next = request.uri.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "/admin"
            return Response(status: .seeOther, headers: [.location: "/?next=\(next)"])
        }
        do {
            try await self.operators.admit(caller, to: "open the operator console")
        } catch {
            return await self.page("forbidden.html", request, status: .forbidden)
        }
        return await self.page("admin.html", request)
    }

    private func asset(_ request: Request) throws -> Response {
        let path = String(request.uri.path.dropFirst("/assets/".count))
        guard let file = self.assets.file(path), !file.isPage else {
            throw ProblemDocument.notFound("There is no asset \(path).")
        }
        var headers = Self.securityHeaders
        headers[.contentType] = file.contentType
        // Kept by the browser and asked for again with its tag: an unchanged file is a 304 without a body.
        headers[.cacheControl] = "no-cache"
        headers[.eTag] = file.tag
        if EntityTag.matches(request.headers[.ifNoneMatch], file.tag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }

    // MARK: Session

    /// What the sign-in page posts: a provider's ID token, or an email on a development server.
    private struct SignInForm: Decodable {
        var provider: String
        var idToken: String?
        var email: String?
        var displayName: String?
        var timeZone: String?
    }

    /// Which ways of signing in the sign-in page offers.
    private func signInMethods() throws -> Response {
        let available = self.accounts.availableSignIn
        // Google and Apple are offered here when their web flows are configured (an app's ID tokens are the API's).
        let google = self.accounts.signsInOnTheWeb(with: .google) && self.web.webClientID(of: "google") != nil
        let apple = self.accounts.signsInOnTheWeb(with: .apple) && self.web.webClientID(of: "apple") != nil
        return try Self.json(["signIn": ["google": google, "apple": apple, "dev": available.dev]])
    }

    private func signIn(_ request: Request) async throws -> Response {
        try self.requireCSRF(request)
        try await self.budget("signInForDevelopment")
        var request = request
        let form = try await Self.decode(SignInForm.self, from: &request)
        let signIn: SignIn
        switch form.provider {
        case "dev":
            signIn = try await self.accounts.devSignIn(
                email: try Self.required(form.email, "email"),
                name: form.displayName,
                timeZone: form.timeZone
            )
        case "google", "apple":
            signIn = try await self.accounts.signIn(
                with: form.provider == "google" ? .google : .apple,
                idToken: try Self.required(form.idToken, "idToken"),
                name: form.displayName,
                timeZone: form.timeZone
            )
        default:
            throw ValidationError(field: "provider", reason: "expected one of google, apple, dev")
        }
        return try self.sessionResponse(
            signIn,
            body: [
                "userId": signIn.user.id.rawValue, "isNewUser": signIn.isNewUser,
                "onboarded": signIn.user.profile.isOnboarded,
            ]
        )
    }

    private func refresh(_ request: Request) async throws -> Response {
        try self.requireCSRF(request)
        try await self.budget("refreshTokens")
        guard let token = WebSession.cookie(WebSession.refreshCookie, in: request.headers) else {
            throw DomainError.unauthenticated(reason: "There is no web session to refresh; sign in again.")
        }
        do {
            let signIn = try await self.accounts.refresh(token)
            return try self.sessionResponse(signIn, body: ["userId": signIn.user.id.rawValue])
        } catch let error as DomainError {
            // A refresh token that no longer works ends the session in the browser too.
            var problem = ProblemDocument.from(error) ?? .unauthenticated("Sign in again.")
            for cookie in WebSession.clearingCookies(csrf: self.accounts.csrf, secure: self.secureCookies) {
                problem.headers.append(HTTPField(name: .setCookie, value: cookie))
            }
            throw problem
        }
    }

    private func signOut(_ request: Request) async throws -> Response {
        try self.requireCSRF(request)
        if let caller = await self.caller(of: request) {
            try await self.accounts.signOut(caller)
        }
        var headers = Self.securityHeaders
        for cookie in WebSession.clearingCookies(csrf: self.accounts.csrf, secure: self.secureCookies) {
            headers.append(HTTPField(name: .setCookie, value: cookie))
        }
        return Response(status: .noContent, headers: headers)
    }

    /// The session's caller: by the access cookie, or, when it has expired, by renewing the refresh cookie
    /// (so that signing out after 15 idle minutes still ends the session on the server).
    private func caller(of request: Request) async -> Caller? {
        if let token = WebSession.cookie(WebSession.accessCookie, in: request.headers),
            let caller = try? await self.accounts.authenticate(accessToken: token)
        {
            return caller
        }
        guard let refresh = WebSession.cookie(WebSession.refreshCookie, in: request.headers),
            let renewed = try? await self.accounts.refresh(refresh)
        else { return nil }
        return try? await self.accounts.authenticate(accessToken: renewed.accessToken)
    }

    private func sessionResponse(_ signIn: SignIn, body: [String: Any]) throws -> Response {
        var response = try Self.json(body)
        for cookie in WebSession.cookies(
            for: signIn,
            csrf: self.accounts.csrf,
            now: self.now(),
            secure: self.secureCookies
        ) {
            response.headers.append(HTTPField(name: .setCookie, value: cookie))
        }
        return response
    }

    private static func json(_ body: [String: Any]) throws -> Response {
        var headers = Self.securityHeaders
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Counts the request against the budget of the API operation it stands for, per address.
    func budget(_ operationID: String) async throws {
        guard let limit = self.limits.operationLimit(operationID) else { return }
        let decision = try await self.shared.decide("address:\(RequestPeer.address)", limit)
        guard decision.allowed else {
            throw ProblemDocument.rateLimited(limit, decision, "Too many \(limit.name) requests; slow down.")
        }
    }

    /// The session routes (sign in, renew, sign out) guard no session's data: a token this server made, for
    /// whichever session or none, will do; the API's operations want their session's (`AuthenticationMiddleware`).
    private func requireCSRF(_ request: Request) throws {
        guard WebSession.hasCSRFToken(request.headers, secure: self.secureCookies, self.accounts.csrf.isGenuine) else {
            throw DomainError.forbidden(
                reason:
                    "Send the \(WebSession.csrfCookieName(secure: self.secureCookies)) cookie's value as X-CSRF-Token (load a page of the web app first)."
            )
        }
    }

    /// The session the access cookie names, while it is signed in.
    private func session(of request: Request) async -> Session.ID? {
        guard let token = WebSession.cookie(WebSession.accessCookie, in: request.headers) else { return nil }
        return try? await self.accounts.authenticate(accessToken: token).sessionID
    }

    private static func decode<T: Decodable>(_ type: T.Type, from request: inout Request) async throws -> T {
        let mediaType = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
            .lowercased()
        guard mediaType == "application/json" else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let body = try await request.collectBody(upTo: 64 * 1024)
        guard body.readableBytes > 0 else {
            throw ProblemDocument.badRequest("The body is empty; this route expects a JSON document.")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body.readableBytesView))
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw ValidationError(
                field: context.codingPath.map(\.stringValue).joined(separator: "."),
                reason: "has the wrong type"
            )
        } catch let DecodingError.keyNotFound(key, _) {
            throw ValidationError(field: key.stringValue, reason: "is required")
        }
    }

    private static func required(_ value: String?, _ field: String) throws -> String {
        guard let value, !value.isEmpty else { throw ValidationError(field: field, reason: "is required") }
        return value
    }

    // MARK: Headers

    /// What every response of the web app says about itself.
    static let securityHeaders: HTTPFields = [
        .xContentTypeOptions: "nosniff",
        .referrerPolicy: "same-origin",
    ]

    /// Pages add a Content-Security-Policy that allows only the server's own scripts, styles and
    /// connections (no inline script or style), and are never framed or cached.
    static let pageHeaders: HTTPFields = {
        var headers = securityHeaders
        headers[.contentSecurityPolicy] =
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; "
            + "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
        headers[.frameOptions] = "DENY"
        headers[.cacheControl] = "no-store"
        return headers
    }()
}
