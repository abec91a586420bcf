public import FitCircleCore
import Foundation
import JWTKit

/// Verifies a provider's ID token: an RS256 signature by a key of the provider's key set, then the claims
/// (issuer, audience, expiry, issue time) against the injected clock.
public struct IdentityTokenVerifier: Sendable {
    public let provider: IdentityProvider
    /// The apps' client IDs, which an app's token (no nonce) must be for.
    public let clientIDs: Set<String>
    /// The web app's client ID, which a web flow's token (with its nonce) must be for.
    public let webClientID: String?
    let keys: any JWKSSource
    let clock: WallClock

    public init(
        provider: IdentityProvider,
        clientIDs: Set<String>,
        webClientID: String? = nil,
        keys: any JWKSSource,
        clock: WallClock
    ) {
        self.provider = provider
        self.clientIDs = clientIDs
        self.webClientID = webClientID
        self.keys = keys
        self.clock = clock
    }

    /// Why an ID token is refused; the detail goes to logs, the client only learns it was refused.
    public enum Failure: Error, Equatable, Sendable {
        case malformed
        case unsupportedAlgorithm(String)
        case unknownKey
        case badSignature
        case rejected(IdentityClaims.Rejection)
    }

    /// - Parameter nonce: the web flow's, which the token must carry; nil for an app's token.
    public func verify(_ token: String, nonce: String? = nil) async throws(Failure) -> IdentityClaims {
        let header = try Self.header(of: token)
        guard header.alg == "RS256" else { throw .unsupportedAlgorithm(header.alg ?? "none") }
        guard let kid = header.kid else { throw .unknownKey }

        var collection = try await self.keyCollection(refresh: false)
        if !collection.kids.contains(kid) {
            // Providers rotate keys: a token may name a key published after our copy was cached.
            collection = try await self.keyCollection(refresh: true)
            guard collection.kids.contains(kid) else { throw .unknownKey }
        }
        let payload: ProviderTokenPayload
        do {
            payload = try await collection.keys.verify(token, as: ProviderTokenPayload.self)
        } catch {
            throw .badSignature
        }
        let claims = payload.claims
        do {
            // A web flow's token is for the web app's client, an app's for an app's: neither is taken for the other.
            let audiences = nonce == nil ? self.clientIDs : Set([self.webClientID].compactMap { $0 })
            try claims.validate(provider: self.provider, clientIDs: audiences, now: self.clock.now(), nonce: nonce)
        } catch {
            throw .rejected(error)
        }
        return claims
    }

    private func keyCollection(refresh: Bool) async throws(Failure) -> (keys: JWTKeyCollection, kids: Set<String>) {
        do {
            let json = try await self.keys.jwks(refresh: refresh)
            let set = try JSONDecoder().decode(JWKS.self, from: Data(json.utf8))
            let keys = JWTKeyCollection()
            for key in set.keys where key.keyType == .rsa {
                try await keys.add(jwk: key)
            }
            return (keys, Set(set.keys.compactMap { $0.keyIdentifier?.string }))
        } catch {
            throw .unknownKey
        }
    }

    private struct Header: Decodable {
        var alg: String?
        var kid: String?
    }

    private static func header(of token: String) throws(Failure) -> Header {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Data(base64URLEncoded: parts[0]),
            let header = try? JSONDecoder().decode(Header.self, from: data)
        else { throw .malformed }
        return header
    }
}

/// The claims read from a provider's ID token. `verify(using:)` checks nothing: the verifier checks the
/// claims itself against the injected clock, so tests control time.
struct ProviderTokenPayload: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    var email: String?
    var email_verified: BoolClaim?
    var name: String?
    var nonce: String?

    func verify(using _: some JWTAlgorithm) throws {}

    var claims: IdentityClaims {
        IdentityClaims(
            issuer: self.iss.value,
            subject: self.sub.value,
            audiences: self.aud.value,
            expiresAt: self.exp.value,
            issuedAt: self.iat.value,
            email: self.email,
            emailVerified: self.email_verified?.value,
            name: self.name,
            nonce: self.nonce
        )
    }
}
