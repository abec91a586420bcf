import Crypto
public import FitCircleCore
public import Foundation

/// The web app's CSRF tokens (`WebSession`'s double submit), bound to what they protect: a token is a
/// random part, the session it was made for (`-` before sign-in) and their HMAC. A cookie that another
/// site managed to plant (a sibling subdomain, a plain-http answer) holds no token of the victim's
/// session, so planting one and sending it as the header gets nowhere. The session id in it is no secret
/// (it authenticates nothing); the scripts of the page read the cookie anyway.
public struct CSRFTokens: Sendable {
    private let key: SymmetricKey

    /// - Parameter secret: the server's signing secret; the key is derived from it for this use alone.
    public init(secret: Data) {
        self.key = SymmetricKey(
            data: HMAC<SHA256>.authenticationCode(
                for: Data("fitcircle csrf token".utf8),
                using: SymmetricKey(data: secret)
            )
        )
    }

    /// A fresh token for `session` (nil: not signed in).
    public func token(for session: Session.ID?) -> String {
        let (random, binding) = (Secrets.random(bytes: 16), session?.rawValue ?? "-")
        return "\(random).\(binding).\(self.mac(random, binding))"
    }

    /// Whether `token` was made by this server for `session` (nil: not signed in).
    public func isValid(_ token: String, for session: Session.ID?) -> Bool {
        self.binding(of: token).map { $0 == (session?.rawValue ?? "-") } ?? false
    }

    /// Whether `token` was made by this server, for whichever session or none: enough where a token guards
    /// no session's data (signing in, renewing or ending the session that the cookies name).
    public func isGenuine(_ token: String) -> Bool {
        self.binding(of: token) != nil
    }

    /// The session `token` was made for (`-`: none), when this server made it.
    private func binding(of token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[0].count <= 64, parts[1].count <= 128 else { return nil }
        return ConstantTime.equal(parts[2], self.mac(parts[0], parts[1])) ? parts[1] : nil
    }

    private func mac(_ random: String, _ binding: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data("\(binding)|\(random)".utf8), using: self.key).map {
            String(format: "%02x", $0)
        }.joined()
    }
}
