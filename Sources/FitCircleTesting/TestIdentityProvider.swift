public import FitCircleCore
public import FitCircleEngine
public import Foundation
import JWTKit
import _CryptoExtras

/// Plays Google or Apple in tests: signs ID tokens with a local RSA key and publishes its key set, so no
/// test ever calls a real provider.
public struct TestIdentityProvider: Sendable {
    public let provider: IdentityProvider
    public let keyID: String
    let key: JWTKit.Insecure.RSA.PrivateKey

    /// Generating RSA keys is slow: tests share a few.
    static let sharedKeys: [JWTKit.Insecure.RSA.PrivateKey] = (0..<2).map { _ in
        try! JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
    }

    public init(_ provider: IdentityProvider, keyID: String = "test-key-1", keyIndex: Int = 0) {
        self.provider = provider
        self.keyID = keyID
        self.key = Self.sharedKeys[keyIndex]
    }

    /// A provider that signs with another key but claims the same key id: its tokens are forgeries.
    public var forger: TestIdentityProvider {
        TestIdentityProvider(self.provider, keyID: self.keyID, keyIndex: 1)
    }

    /// The JSON Web Key Set a server should trust for this provider.
    public var jwksJSON: String {
        let (modulus, exponent) = try! self.key.publicKey.getKeyPrimitives()
        let key: [String: String] = [
            "kty": "RSA", "alg": "RS256", "use": "sig", "kid": self.keyID,
            "n": modulus.base64URLEncoded(), "e": exponent.base64URLEncoded(),
        ]
        let data = try! JSONSerialization.data(withJSONObject: ["keys": [key]], options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    public var jwksSource: any JWKSSource { StaticJWKSSource(json: self.jwksJSON) }

    /// The claims a real provider would put in a token for `subject`, issued at `now` for an hour.
    public func claims(
        subject: String = "subject-1",
        audience: String = "test-client",
        now: Date,
        email: String? = "ana@example.com",
        name: String? = "Ana Lima"
    ) -> IdentityClaims {
        IdentityClaims(
            issuer: self.provider.issuers.sorted().last!,
            subject: subject,
            audiences: [audience],
            expiresAt: now.addingTimeInterval(3600),
            issuedAt: now,
            email: email,
            emailVerified: email == nil ? nil : true,
            name: name
        )
    }

    /// A signed ID token carrying `claims`, with the header algorithm `algorithm`.
    public func idToken(_ claims: IdentityClaims) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(rsa: self.key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: self.keyID))
        let payload = TestIDTokenPayload(
            iss: .init(value: claims.issuer),
            sub: .init(value: claims.subject),
            aud: .init(value: claims.audiences),
            exp: .init(value: claims.expiresAt),
            iat: .init(value: claims.issuedAt),
            email: claims.email,
            email_verified: claims.emailVerified.map { BoolClaim(value: $0) },
            name: claims.name,
            nonce: claims.nonce
        )
        return try await keys.sign(payload, kid: JWKIdentifier(string: self.keyID))
    }

    /// A token with a valid shape whose header asks for HMAC with the provider's public key as secret:
    /// the classic algorithm-confusion forgery.
    public func hmacConfusionToken(_ claims: IdentityClaims) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(
            hmac: HMACKey(from: Data(self.jwksJSON.utf8)),
            digestAlgorithm: .sha256,
            kid: JWKIdentifier(string: self.keyID)
        )
        let payload = TestIDTokenPayload(
            iss: .init(value: claims.issuer),
            sub: .init(value: claims.subject),
            aud: .init(value: claims.audiences),
            exp: .init(value: claims.expiresAt),
            iat: .init(value: claims.issuedAt),
            email: claims.email,
            email_verified: nil,
            name: claims.name
        )
        return try await keys.sign(payload, kid: JWKIdentifier(string: self.keyID))
    }
}

struct TestIDTokenPayload: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    var email: String?
    var email_verified: BoolClaim?
    var name: String?
    var nonce: String? = nil

    func verify(using _: some JWTAlgorithm) throws {}
}
