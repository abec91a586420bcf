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
        try self.claims(issuer: "accounts.google.com").validate(provider: .google, clientIDs: ["app", "web"], now: self.now)
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
}
