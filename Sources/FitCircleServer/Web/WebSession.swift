import FitCircleCore
import FitCircleEngine
import Foundation
import HTTPTypes

/// The web app's session: the same access and refresh tokens an app holds, kept in cookies that page
/// scripts cannot read (HttpOnly, SameSite=Strict, Secure when the server is reached over TLS). A request
/// the session cookie authenticates and that may change something must also carry `X-CSRF-Token` equal to
/// the CSRF cookie (double submit): another site can neither read that cookie nor set the header. The
/// token is bound to the session (`CSRFTokens`), and over TLS the cookie is `__Host-fc_csrf`, which a
/// sibling subdomain or a plain-http answer cannot set.
enum WebSession {
    static let accessCookie = "fc_access"
    static let refreshCookie = "fc_refresh"
    static let csrfHeader = HTTPField.Name.csrfToken
    /// Where the refresh cookie is sent: only to the session routes that use it.
    static let refreshPath = "/web/session"

    /// The value of cookie `name` in a request's `Cookie` headers.
    static func cookie(_ name: String, in fields: HTTPFields) -> String? {
        for header in fields[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }

    /// Methods that change nothing need no CSRF token.
    static func isSafe(_ method: HTTPRequest.Method) -> Bool {
        method == .get || method == .head || method == .options
    }

    /// The CSRF cookie's name: `__Host-` prefixed over TLS (Secure, `Path=/`, no domain: only this host
    /// sets it); plain `fc_csrf` in development over http, where browsers refuse the prefix.
    static func csrfCookieName(secure: Bool) -> String {
        secure ? "__Host-fc_csrf" : "fc_csrf"
    }

    /// The request's CSRF cookie.
    static func csrfToken(in fields: HTTPFields, secure: Bool) -> String? {
        Self.cookie(Self.csrfCookieName(secure: secure), in: fields)
    }

    /// The request carries the CSRF cookie, the same value in the header, and `valid` takes it.
    static func hasCSRFToken(_ fields: HTTPFields, secure: Bool, _ valid: (String) -> Bool) -> Bool {
        guard let cookie = Self.csrfToken(in: fields, secure: secure), let header = fields[Self.csrfHeader] else {
            return false
        }
        return ConstantTime.equal(cookie, header) && valid(cookie)
    }

    /// A fresh random value (the web sign-in flow's state and nonce): 32 random bytes, hex.
    static func newCSRFToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// The cookies that hold a sign-in's tokens, and the CSRF token of its session.
    static func cookies(for signIn: SignIn, csrf: CSRFTokens, now: Date, secure: Bool) -> [String] {
        [
            Self.setCookie(
                Self.accessCookie,
                signIn.accessToken,
                path: "/",
                maxAge: signIn.accessTokenExpiresAt.timeIntervalSince(now),
                httpOnly: true,
                secure: secure
            ),
            Self.setCookie(
                Self.refreshCookie,
                signIn.refreshToken,
                path: Self.refreshPath,
                maxAge: signIn.refreshTokenExpiresAt.timeIntervalSince(now),
                httpOnly: true,
                secure: secure
            ),
            Self.csrfCookie(csrf.token(for: signIn.sessionID), secure: secure),
        ]
    }

    /// The cookies that end the session in the browser, and a CSRF token of no session for the next sign-in.
    static func clearingCookies(csrf: CSRFTokens, secure: Bool) -> [String] {
        [
            Self.setCookie(Self.accessCookie, "", path: "/", maxAge: 0, httpOnly: true, secure: secure),
            Self.setCookie(Self.refreshCookie, "", path: Self.refreshPath, maxAge: 0, httpOnly: true, secure: secure),
            Self.csrfCookie(csrf.token(for: nil), secure: secure),
        ]
    }

    /// The CSRF cookie: readable by the page's scripts, which copy it into the header.
    static func csrfCookie(_ token: String, secure: Bool) -> String {
        Self.setCookie(
            Self.csrfCookieName(secure: secure),
            token,
            path: "/",
            maxAge: nil,
            httpOnly: false,
            secure: secure
        )
    }

    private static func setCookie(
        _ name: String,
        _ value: String,
        path: String,
        maxAge: TimeInterval?,
        httpOnly: Bool,
        secure: Bool
    ) -> String {
        var parts = ["\(name)=\(value)", "Path=\(path)", "SameSite=Strict"]
        if let maxAge { parts.append("Max-Age=\(max(0, Int(maxAge)))") }
        if httpOnly { parts.append("HttpOnly") }
        if secure { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }
}
