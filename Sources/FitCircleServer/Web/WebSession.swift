import FitCircleEngine
import Foundation
import HTTPTypes

/// The web app's session: the same access and refresh tokens an app holds, kept in cookies that page
/// scripts cannot read (HttpOnly, SameSite=Strict, Secure when the server is reached over TLS). A request
/// the session cookie authenticates and that may change something must also carry `X-CSRF-Token` equal to
/// the `fc_csrf` cookie (double submit): another site can neither read that cookie nor set the header.
enum WebSession {
    static let accessCookie = "fc_access"
    static let refreshCookie = "fc_refresh"
    static let csrfCookie = "fc_csrf"
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

    /// The request carries the CSRF cookie and the same value in the header.
    static func hasCSRFToken(_ fields: HTTPFields) -> Bool {
        guard let cookie = Self.cookie(Self.csrfCookie, in: fields), let header = fields[Self.csrfHeader] else { return false }
        return Self.constantTimeEqual(cookie, header)
    }

    /// A fresh CSRF token: 32 random bytes, hex.
    static func newCSRFToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// The cookies that hold a sign-in's tokens.
    static func cookies(for signIn: SignIn, now: Date, secure: Bool) -> [String] {
        [
            Self.setCookie(Self.accessCookie, signIn.accessToken, path: "/", maxAge: signIn.accessTokenExpiresAt.timeIntervalSince(now), httpOnly: true, secure: secure),
            Self.setCookie(Self.refreshCookie, signIn.refreshToken, path: Self.refreshPath, maxAge: signIn.refreshTokenExpiresAt.timeIntervalSince(now), httpOnly: true, secure: secure),
        ]
    }

    /// The cookies that end the session in the browser.
    static func clearingCookies(secure: Bool) -> [String] {
        [
            Self.setCookie(Self.accessCookie, "", path: "/", maxAge: 0, httpOnly: true, secure: secure),
            Self.setCookie(Self.refreshCookie, "", path: Self.refreshPath, maxAge: 0, httpOnly: true, secure: secure),
        ]
    }

    /// The CSRF cookie: readable by the page's scripts, which copy it into the header.
    static func csrfCookie(_ token: String, secure: Bool) -> String {
        Self.setCookie(Self.csrfCookie, token, path: "/", maxAge: nil, httpOnly: false, secure: secure)
    }

    private static func setCookie(_ name: String, _ value: String, path: String, maxAge: TimeInterval?, httpOnly: Bool, secure: Bool) -> String {
        var parts = ["\(name)=\(value)", "Path=\(path)", "SameSite=Strict"]
        if let maxAge { parts.append("Max-Age=\(max(0, Int(maxAge)))") }
        if httpOnly { parts.append("HttpOnly") }
        if secure { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
