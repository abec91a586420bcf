public import Foundation

/// The claims of a provider's ID token that FitCircle relies on, after its signature was verified.
public struct IdentityClaims: Equatable, Sendable {
    public var issuer: String
    public var subject: String
    public var audiences: [String]
    public var expiresAt: Date
    public var issuedAt: Date
    public var email: String?
    public var emailVerified: Bool?
    public var name: String?
    /// The value the web sign-in flow sent with its authorization request (OpenID Connect's `nonce`).
    public var nonce: String?

    public init(
        issuer: String,
        subject: String,
        audiences: [String],
        expiresAt: Date,
        issuedAt: Date,
        email: String? = nil,
        emailVerified: Bool? = nil,
        name: String? = nil,
        nonce: String? = nil
    ) {
        self.issuer = issuer
        self.subject = subject
        self.audiences = audiences
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.nonce = nonce
    }

    /// Why a signed token is still not accepted.
    public enum Rejection: Error, Equatable, Sendable {
        case wrongIssuer(String)
        case wrongAudience([String])
        case expired(at: Date)
        case issuedInTheFuture(at: Date)
        case missingSubject
        case unverifiedEmail
        /// Not the token the web flow asked for (a replayed or injected one).
        case wrongNonce
    }

    /// Clocks of phones and servers drift; tokens are trusted within this much of `now`.
    public static let allowedClockSkew: TimeInterval = 60

    /// Checks issuer, audience, expiry and issue time against `now` (OpenID Connect Core, 3.1.3.7), and the
    /// nonce when the web flow sent one (3.1.3.7, 11).
    public func validate(provider: IdentityProvider, clientIDs: Set<String>, now: Date, nonce: String? = nil)
        throws(Rejection)
    {
        guard provider.issuers.contains(self.issuer) else { throw .wrongIssuer(self.issuer) }
        guard !self.audiences.isEmpty, self.audiences.allSatisfy(clientIDs.contains) else {
            throw .wrongAudience(self.audiences)
        }
        guard self.expiresAt.addingTimeInterval(Self.allowedClockSkew) > now else { throw .expired(at: self.expiresAt) }
        guard self.issuedAt <= now.addingTimeInterval(Self.allowedClockSkew) else {
            throw .issuedInTheFuture(at: self.issuedAt)
        }
        guard !self.subject.isEmpty else { throw .missingSubject }
        // An address is trusted only when the provider says it verified it. Google always says so for an
        // address it verified: one without `email_verified` is not (issue 41 found such tokens accepted).
        // Apple leaves the claim out for some accounts; a `false` is refused there too.
        if self.email != nil, self.emailVerified == false || (provider == .google && self.emailVerified != true) {
            throw .unverifiedEmail
        }
        if let nonce, self.nonce != nonce { throw .wrongNonce }
    }
}
