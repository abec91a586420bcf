import FitCircleCore
import Foundation
import Testing

struct IdentityClaimsTests {
    let now = Date(timeIntervalSince1970: 1_772_452_800)

    func claims(
        issuer: String = "https://accounts.google.com",
        audiences: [String] = ["app"],
        expiresIn: TimeInterval = 3600,
        issuedAgo: TimeInterval = 0,
        emailVerified: Bool? = true
    ) -> IdentityClaims {
        IdentityClaims(
            issuer: issuer,
            subject: "123",
            audiences: audiences,
            expiresAt: self.now.addingTimeInterval(expiresIn),
            issuedAt: self.now.addingTimeInterval(-issuedAgo),
            email: "ana@example.com",
            emailVerified: emailVerified
        )
    }

    @Test func aFreshTokenForOurClientIsAccepted() throws {
        try self.claims().validate(provider: .google, clientIDs: ["app"], now: self.now)
        try self.claims(issuer: "accounts.google.com").validate(
            provider: .google,
            clientIDs: ["app", "web"],
            now: self.now
        )
    }

    @Test func anotherProvidersIssuerIsRefused() {
        #expect(throws: IdentityClaims.Rejection.wrongIssuer("https://accounts.google.com")) {
            try self.claims().validate(provider: .apple, clientIDs: ["app"], now: self.now)
        }
    }

    @Test(arguments: [["other"], ["app", "other"], []])
    func aTokenForAnotherAudienceIsRefused(audiences: [String]) {
        #expect(throws: IdentityClaims.Rejection.wrongAudience(audiences)) {
            try self.claims(audiences: audiences).validate(provider: .google, clientIDs: ["app"], now: self.now)
        }
    }

    @Test func anExpiredTokenIsRefusedBeyondTheAllowedSkew() throws {
        try self.claims(expiresIn: -30).validate(provider: .google, clientIDs: ["app"], now: self.now)
        #expect(throws: IdentityClaims.Rejection.self) {
            try self.claims(expiresIn: -61).validate(provider: .google, clientIDs: ["app"], now: self.now)
        }
    }

    @Test func aTokenIssuedInTheFutureIsRefused() {
        #expect(throws: IdentityClaims.Rejection.self) {
            try self.claims(issuedAgo: -120).validate(provider: .google, clientIDs: ["app"], now: self.now)
        }
    }

    @Test func anUnverifiedEmailIsRefused() {
        #expect(throws: IdentityClaims.Rejection.unverifiedEmail) {
            try self.claims(emailVerified: false).validate(provider: .google, clientIDs: ["app"], now: self.now)
        }
    }

    /// Google says `email_verified: true` of every address it verified: a token without the claim is refused.
    @Test func aGoogleEmailWithoutEmailVerifiedIsRefused() {
        #expect(throws: IdentityClaims.Rejection.unverifiedEmail) {
            try self.claims(emailVerified: nil).validate(provider: .google, clientIDs: ["app"], now: self.now)
        }
    }
}

/// What a webhook may not point at unless the server allows it (issue 41).
struct PrivateAddressTests {
    @Test func loopbackPrivateLinkLocalAndUnspecifiedAddressesArePrivate() {
        for host in [
            "localhost", "localhost.", "api.localhost", "127.0.0.1", "127.8.9.10", "10.0.0.1", "172.16.0.1",
            "172.31.255.255", "192.168.1.1", "169.254.169.254",
            "100.64.0.1", "0.0.0.0", "::1", "[::1]", "::", "fe80::1", "fd12:3456::1", "fc00::", "::ffff:10.0.0.1",
            "[::ffff:169.254.169.254]",
        ] {
            #expect(PrivateAddress.isPrivate(host: host), "\(host)")
        }
        for host in [
            "example.com", "8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2001:db8::1", "::ffff:8.8.8.8",
            "1.2.3", "256.1.1.1", "10.0.0.1.example.com",
        ] {
            #expect(!PrivateAddress.isPrivate(host: host), "\(host)")
        }
    }
}
