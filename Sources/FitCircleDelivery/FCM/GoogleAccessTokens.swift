import AsyncHTTPClient
public import FitCircleCore
import Foundation
public import JWTKit
import NIOCore
import NIOHTTP1
import Synchronization

/// OAuth 2.0 access tokens for a service account (RFC 7523's JWT bearer grant, as Google does it): an
/// assertion signed RS256 with the account's key is exchanged at its `token_uri`; the token is reused
/// until a minute before it expires, or until the provider refuses it (`refreshed()`).
final class GoogleAccessTokens: Sendable {
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    private let account: FCMServiceAccount
    private let keys: JWTKeyCollection
    private let call: ProviderCall
    private let clock: WallClock
    private let current = Mutex<(token: String, expiresAt: Date)?>(nil)

    init(account: FCMServiceAccount, call: ProviderCall, clock: WallClock) async throws {
        self.account = account
        self.call = call
        self.clock = clock
        self.keys = JWTKeyCollection()
        await self.keys.add(rsa: try Insecure.RSA.PrivateKey(pem: account.privateKey), digestAlgorithm: .sha256)
    }

    /// A token good for at least another minute.
    func token() async throws -> String {
        let now = self.clock.now()
        if let current = self.current.withLock({ $0 }), current.expiresAt > now.addingTimeInterval(60) {
            return current.token
        }
        return try await self.refreshed()
    }

    /// A new token, whatever the one held.
    func refreshed() async throws -> String {
        let now = self.clock.now()
        let assertion = try await self.keys.sign(
            ServiceAccountAssertion(
                iss: IssuerClaim(value: self.account.clientEmail),
                scope: Self.scope,
                aud: AudienceClaim(value: self.account.tokenURI),
                iat: IssuedAtClaim(value: now),
                exp: ExpirationClaim(value: now.addingTimeInterval(3_600))
            )
        )
        var request = HTTPClientRequest(url: self.account.tokenURI)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(
            ByteBuffer(
                string: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
            )
        )
        let response = try await self.call.send(request)
        guard response.status == 200, let granted = try? JSONDecoder().decode(Granted.self, from: response.body) else {
            throw TokenRefused(
                status: response.status,
                body: String(decoding: response.body.prefix(200), as: UTF8.self)
            )
        }
        let expiresAt = now.addingTimeInterval(TimeInterval(granted.expiresIn))
        self.current.withLock { $0 = (granted.accessToken, expiresAt) }
        return granted.accessToken
    }

    struct TokenRefused: Error, CustomStringConvertible {
        var status: Int
        var body: String
        var description: String { "the token endpoint answered \(self.status): \(self.body)" }
    }

    private struct Granted: Decodable {
        var accessToken: String
        var expiresIn: Int
        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
        }
    }
}

/// The claims of a service account's token request (RFC 7523): issuer the account, audience the token
/// endpoint, the scope asked for, an hour at most.
public struct ServiceAccountAssertion: JWTPayload {
    public var iss: IssuerClaim
    public var scope: String
    public var aud: AudienceClaim
    public var iat: IssuedAtClaim
    public var exp: ExpirationClaim

    /// Checked by the token endpoint (and the tests' fake of it), not here.
    public func verify(using _: some JWTAlgorithm) throws {}
}
