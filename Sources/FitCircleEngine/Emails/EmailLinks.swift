import Crypto
public import FitCircleCore
public import Foundation

/// The signed tokens in an email's links: unsubscribing one user from one type, tracking the opening of
/// one email or a click on one of its links, and showing an invitation sent to an address. A token is its claims (JSON, base64url) and an HMAC-SHA256
/// of them with a server secret, so none can be forged, nor turned to another user, type or email.
public struct EmailLinks: Sendable {
    public enum Claim: Equatable, Sendable {
        /// Stops emails of `type` to `user`.
        case unsubscribe(user: User.ID, type: String)
        /// The email of this notification was opened (its tracking pixel loaded).
        case open(notification: NotificationRecord.ID)
        /// Link `index` of the email of this notification was followed.
        case click(notification: NotificationRecord.ID, index: Int)
        /// The page of an invitation emailed to an address with no account.
        case invitation(CircleInvitation.ID)
    }

    private let key: SymmetricKey

    public init(secret: Data) {
        self.key = SymmetricKey(data: secret)
    }

    public func token(_ claim: Claim) -> String {
        let claims: Claims =
            switch claim {
            case .unsubscribe(let user, let type): Claims(p: "u", u: user.rawValue, t: type, n: nil, i: nil)
            case .open(let notification): Claims(p: "o", u: nil, t: nil, n: notification.rawValue, i: nil)
            case .click(let notification, let index): Claims(p: "c", u: nil, t: nil, n: notification.rawValue, i: index)
            case .invitation(let invitation): Claims(p: "v", u: nil, t: nil, n: invitation.rawValue, i: nil)
            }
        let payload = ((try? JSONEncoder().encode(claims)) ?? Data()).base64URLEncoded()
        return
            "\(payload).\(Data(HMAC<SHA256>.authenticationCode(for: Data(payload.utf8), using: self.key)).base64URLEncoded())"
    }

    /// The token's claim, or nil when it was not made by this server (or is not a token at all).
    public func claim(of token: String) -> Claim? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let mac = Data(base64URLEncoded: parts[1]),
            HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data(parts[0].utf8), using: self.key),
            let json = Data(base64URLEncoded: parts[0]), let claims = try? JSONDecoder().decode(Claims.self, from: json)
        else { return nil }
        switch (claims.p, claims.u, claims.t, claims.n, claims.i) {
        case ("u", let user?, let type?, nil, nil): return .unsubscribe(user: User.ID(user), type: type)
        case ("o", nil, nil, let notification?, nil): return .open(notification: NotificationRecord.ID(notification))
        case ("c", nil, nil, let notification?, let index?):
            return .click(notification: NotificationRecord.ID(notification), index: index)
        case ("v", nil, nil, let invitation?, nil): return .invitation(CircleInvitation.ID(invitation))
        default: return nil
        }
    }

    /// Short keys: the token rides in URLs.
    private struct Claims: Codable {
        var p: String
        var u: String?
        var t: String?
        var n: String?
        var i: Int?
    }
}
