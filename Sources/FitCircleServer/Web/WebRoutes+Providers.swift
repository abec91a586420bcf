import FitCircleCore
import FitCircleEngine
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Google's and Apple's sign-in on the web (`WebSignInFlow`): `GET /web/auth/{provider}` sends the browser to
/// the provider with a state and a nonce kept in the `fc_oauth` cookie; the provider posts the ID token to
/// `/web/auth/{provider}/callback`, where the state must match the cookie and the token carry its nonce.
/// The callback answers with redirects, never JSON: it is a page the browser is on.
extension WebRoutes {
    static let flowCookie = "fc_oauth"
    static let flowPath = "/web/auth"

    func startProviderSignIn(_ request: Request, provider name: String) throws -> Response {
        guard let provider = IdentityProvider(rawValue: name), let clientID = self.web.webClientID(of: name),
            self.accounts.signsInOnTheWeb(with: provider)
        else { throw DomainError.notFound(resource: "sign-in method", id: name) }
        let zone = request.uri.queryParameters.get("timeZone").flatMap { TimeZone(identifier: $0) != nil ? $0 : nil }
        let pending = WebSignInFlow.Pending(
            provider: provider,
            state: WebSession.newCSRFToken(),
            nonce: WebSession.newCSRFToken(),
            timeZone: zone
        )
        let location = WebSignInFlow.authorizationURL(
            for: provider,
            clientID: clientID,
            redirectURI: self.callbackURL(of: provider),
            state: pending.state,
            nonce: pending.nonce
        )
        var headers = Self.securityHeaders
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        headers.append(
            HTTPField(
                name: .setCookie,
                value: self.flowCookie(pending.cookieValue, maxAge: Int(WebSignInFlow.lifetime))
            )
        )
        return Response(status: .seeOther, headers: headers)
    }

    func finishProviderSignIn(_ request: Request, provider name: String) async -> Response {
        var request = request
        guard let provider = IdentityProvider(rawValue: name), self.web.webClientID(of: name) != nil else {
            return self.backToSignIn("unavailable")
        }
        guard
            let pending = WebSession.cookie(Self.flowCookie, in: request.headers).flatMap(
                WebSignInFlow.Pending.init(cookieValue:)
            ),
            pending.provider == provider
        else { return self.backToSignIn("expired") }
        guard let form = try? await Self.form(of: &request) else { return self.backToSignIn("refused") }
        // The person cancelled at the provider, or it declined.
        if form["error"] != nil { return self.backToSignIn("cancelled") }
        guard let state = form["state"], ConstantTime.equal(state, pending.state), let idToken = form["id_token"] else {
            return self.backToSignIn("expired")
        }
        do {
            try await self.budget(provider == .google ? "signInWithGoogle" : "signInWithApple")
            // Apple sends the name once, on the first sign-in, beside the token.
            let name = form["user"].flatMap(Self.appleName(from:))
            let signIn = try await self.accounts.signIn(
                with: provider,
                idToken: idToken,
                name: name,
                timeZone: pending.timeZone,
                nonce: pending.nonce
            )
            var headers = Self.securityHeaders
            headers[.location] = signIn.user.profile.isOnboarded ? "/app" : "/app/onboarding"
            for cookie in WebSession.cookies(
                for: signIn,
                csrf: self.accounts.csrf,
                now: self.now(),
                secure: self.secureCookies
            ) { headers.append(HTTPField(name: .setCookie, value: cookie)) }
            headers.append(HTTPField(name: .setCookie, value: self.flowCookie("", maxAge: 0)))
            return Response(status: .seeOther, headers: headers)
        } catch {
            return self.backToSignIn("refused")
        }
    }

    private func callbackURL(of provider: IdentityProvider) -> String {
        let base = self.web.publicURL.hasSuffix("/") ? String(self.web.publicURL.dropLast()) : self.web.publicURL
        return "\(base)\(Self.flowPath)/\(provider.rawValue)/callback"
    }

    /// The flow's cookie must come back on the provider's cross-site POST: `SameSite=None`, so `Secure`
    /// (the flows are offered over https only), sent to the flow's routes alone.
    private func flowCookie(_ value: String, maxAge: Int) -> String {
        "\(Self.flowCookie)=\(value); Path=\(Self.flowPath); Max-Age=\(maxAge); HttpOnly; Secure; SameSite=None"
    }

    private func backToSignIn(_ reason: String) -> Response {
        var headers = Self.securityHeaders
        headers[.location] = "/?error=\(reason)"
        headers.append(HTTPField(name: .setCookie, value: self.flowCookie("", maxAge: 0)))
        return Response(status: .seeOther, headers: headers)
    }

    /// An `application/x-www-form-urlencoded` body, as the providers post it (at most 64 kB).
    private static func form(of request: inout Request) async throws -> [String: String] {
        let body = try await request.collectBody(upTo: 64 * 1024)
        var components = URLComponents()
        components.percentEncodedQuery = String(buffer: body).replacingOccurrences(of: "+", with: "%20")
        var fields: [String: String] = [:]
        for item in components.queryItems ?? [] where fields[item.name] == nil { fields[item.name] = item.value ?? "" }
        return fields
    }

    /// Apple's `user` field: `{"name": {"firstName": "…", "lastName": "…"}, "email": "…"}`.
    private static func appleName(from json: String) -> String? {
        struct User: Decodable {
            struct Name: Decodable {
                var firstName: String?
                var lastName: String?
            }
            var name: Name?
        }
        guard let user = try? JSONDecoder().decode(User.self, from: Data(json.utf8)), let name = user.name else {
            return nil
        }
        let whole = [name.firstName, name.lastName].compactMap { $0 }.joined(separator: " ")
        return whole.isEmpty ? nil : whole
    }
}
