public import FitCircleCore
public import Foundation
import JWTKit
import Synchronization

/// Signs and checks FitCircle's own short-lived access tokens (HS256 with the server's secret).
public struct AccessTokens: Sendable {
    public static let issuer = "fitcircle"

    let keys: JWTKeyCollection
    let lifetime: TimeInterval
    let clock: WallClock
    /// Tokens whose signature checked out, so a client's next requests skip decoding and hashing them
    /// (a tenth of a small request's time): a token never changes, only its expiry is checked again.
    private let verified = VerifiedTokens()

    /// - Parameter secret: at least 32 bytes; every node of a cluster must use the same one.
    public init(secret: Data, lifetime: TimeInterval, clock: WallClock) async {
        self.keys = JWTKeyCollection()
        await self.keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.lifetime = lifetime
        self.clock = clock
    }

    /// A signed token for `session`, and when it expires: after its lifetime, or when the session ends.
    public func issue(for session: Session, endingAt sessionEnd: Date) async throws -> (
        token: String, issuedAt: Date, expiresAt: Date
    ) {
        let now = self.clock.now()
        let expiresAt = min(now.addingTimeInterval(self.lifetime), sessionEnd)
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
        if let known = self.verified.tokens.withLock({ $0[token] }) {
            guard known.expiresAt > self.clock.now() else {
                throw .unauthenticated(reason: "The access token has expired.")
            }
            return (known.user, known.session)
        }
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
        guard payload.iss.value == Self.issuer else {
            throw .unauthenticated(reason: "The access token was not issued here.")
        }
        guard payload.exp.value > self.clock.now() else {
            throw .unauthenticated(reason: "The access token has expired.")
        }
        let known = VerifiedToken(
            user: User.ID(payload.sub.value),
            session: Session.ID(payload.sid),
            expiresAt: payload.exp.value
        )
        self.verified.tokens.withLock { verified in
            if verified.count >= VerifiedTokens.capacity { verified.removeAll() }
            verified[token] = known
        }
        return (known.user, known.session)
    }
}

/// Access tokens this node has verified, by their text.
private final class VerifiedTokens: Sendable {
    /// Past this many the memory starts again empty.
    static let capacity = 100_000
    let tokens = Mutex<[String: VerifiedToken]>([:])
}

private struct VerifiedToken {
    var user: User.ID
    var session: Session.ID
    var expiresAt: Date
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
