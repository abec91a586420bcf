public import FitCircleCore
import Foundation
public import JWTKit
import Synchronization

/// APNs provider tokens: an ES256 JWT (`kid` the key id, `iss` the team, `iat` when signed). Apple refuses a
/// token older than an hour and one replaced more often than every 20 minutes, so one is reused for
/// `lifetime` (50 minutes) and replaced early only when APNs calls it expired.
final class APNsProviderTokens: Sendable {
    static let lifetime: TimeInterval = 50 * 60

    private let credentials: APNsCredentials
    private let keys: JWTKeyCollection
    private let clock: WallClock
    private let current = Mutex<(token: String, issuedAt: Date)?>(nil)

    init(credentials: APNsCredentials, clock: WallClock) async throws {
        self.credentials = credentials
        self.clock = clock
        self.keys = JWTKeyCollection()
        await self.keys.add(
            ecdsa: try ES256PrivateKey(pem: credentials.privateKey),
            kid: JWKIdentifier(string: credentials.keyID)
        )
    }

    /// The token in use, or a new one once it is `lifetime` old.
    func token() async throws -> String {
        let now = self.clock.now()
        if let current = self.current.withLock({ $0 }), now.timeIntervalSince(current.issuedAt) < Self.lifetime {
            return current.token
        }
        return try await self.refreshed()
    }

    /// A new token, whatever the one held.
    func refreshed() async throws -> String {
        let now = self.clock.now()
        let token = try await self.keys.sign(
            APNsProviderClaims(iss: IssuerClaim(value: self.credentials.teamID), iat: IssuedAtClaim(value: now)),
            kid: JWKIdentifier(string: self.credentials.keyID)
        )
        self.current.withLock { $0 = (token, now) }
        return token
    }
}

/// The claims of an APNs provider token: the team that signs, and when.
public struct APNsProviderClaims: JWTPayload {
    public var iss: IssuerClaim
    public var iat: IssuedAtClaim

    /// Checked by APNs (and the tests' fake of it), not here.
    public func verify(using _: some JWTAlgorithm) throws {}
}
