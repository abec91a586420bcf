public import FitCircleCore
public import Foundation
import JWTKit

/// Signs and checks FitCircle's own short-lived access tokens (HS256 with the server's secret).
public struct AccessTokens: Sendable {
    public static let issuer = "fitcircle"

    let keys: JWTKeyCollection
    let lifetime: TimeInterval
    let clock: WallClock

    /// - Parameter secret: at least 32 bytes; every node of a cluster must use the same one.
    public init(secret: Data, lifetime: TimeInterval, clock: WallClock) async {
        self.keys = JWTKeyCollection()
        await self.keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.lifetime = lifetime
        self.clock = clock
    }

    /// A signed token for `session`, and when it expires.
    public func issue(for session: Session) async throws -> (token: String, issuedAt: Date, expiresAt: Date) {
        let now = self.clock.now()
        let expiresAt = now.addingTimeInterval(self.lifetime)
        let payload = AccessTokenPayload(
            iss: IssuerClaim(value: Self.issuer),
            sub: SubjectClaim(value: session.userID.rawValue),
            sid: session.id.rawValue,
            iat: IssuedAtClaim(value: now),
            exp: ExpirationClaim(value: expiresAt)
        )
        return (try await self.keys.sign(payload), now, expiresAt)
    }

    /// The session a valid, unexpired token was issued for.
    public func verify(_ token: String) async throws(DomainError) -> (user: User.ID, session: Session.ID) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Data(base64URLEncoded: parts[0]),
            let header = try? JSONDecoder().decode([String: String].self, from: headerData), header["alg"] == "HS256"
        else {
            throw .unauthenticated(reason: "The access token is malformed.")
        }
        let payload: AccessTokenPayload
        do {
            payload = try await self.keys.verify(token, as: AccessTokenPayload.self)
        } catch {
            throw .unauthenticated(reason: "The access token's signature is not valid.")
        }
        guard payload.iss.value == Self.issuer else { throw .unauthenticated(reason: "The access token was not issued here.") }
        guard payload.exp.value > self.clock.now() else { throw .unauthenticated(reason: "The access token has expired.") }
        return (User.ID(payload.sub.value), Session.ID(payload.sid))
    }
}

/// Claims of an access token; checked by `AccessTokens.verify` against the injected clock.
struct AccessTokenPayload: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var sid: String
    var iat: IssuedAtClaim
    var exp: ExpirationClaim

    func verify(using _: some JWTAlgorithm) throws {}
}
