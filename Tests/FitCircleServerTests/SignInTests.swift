import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

struct SignInTests {
    @Test(arguments: Backend.available)
    func aValidGoogleTokenCreatesTheAccountOnceAndSignsIn(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.google.idToken(app.google.claims(now: app.clock.now))
            let first = try await app.request(
                .post,
                "/api/auth/google",
                json: ["idToken": token, "timeZone": "Asia/Kathmandu"]
            )
            #expect(first.status == .ok)
            let body = try first.decoded(as: Components.Schemas.AuthSession.self)
            #expect(body.isNewUser)
            #expect(body.tokenType == .bearer)
            #expect(body.expiresIn == 900)
            let user = body.user
            #expect(user.email == "ana@example.com")
            #expect(user.displayName == "Ana Lima")
            #expect(user.timeZone == "Asia/Kathmandu")
            #expect(user.onboardingRequired)

            let again = try await app.request(.post, "/api/auth/google", json: ["idToken": token])
            let second = try again.decoded(as: Components.Schemas.AuthSession.self)
            #expect(!second.isNewUser)
            #expect(second.user.id == user.id)

            let profile = try await app.request(.get, "/api/user/profile", token: second.accessToken)
            #expect(profile.status == .ok)
        }
    }

    /// Issue 41: two accounts could share an address (one per way of signing in), and `operator grant`
    /// picked one of them. A provider's verified address now joins the account that has it.
    @Test(arguments: Backend.available)
    func oneAddressIsOneAccountHoweverOneSignsIn(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let dev = try await app.devSignIn("ana@example.com").user
            let google = try await app.request(
                .post,
                "/api/auth/google",
                json: [
                    "idToken": try await app.google.idToken(
                        app.google.claims(subject: "g-ana", now: app.clock.now, email: "Ana@Example.com")
                    )
                ]
            )
            let session = try google.decoded(as: Components.Schemas.AuthSession.self)
            #expect(!session.isNewUser)
            #expect(session.user.id == dev.id)
            let apple = try await app.request(
                .post,
                "/api/auth/apple",
                json: [
                    "idToken": try await app.apple.idToken(
                        app.apple.claims(subject: "a-ana", now: app.clock.now, email: "ana@example.com")
                    )
                ]
            )
            #expect(try apple.decoded(as: Components.Schemas.AuthSession.self).user.id == dev.id)
            // Without an address, a subject is an account of its own.
            let anonymous = try await app.request(
                .post,
                "/api/auth/apple",
                json: [
                    "idToken": try await app.apple.idToken(
                        app.apple.claims(subject: "a-none", now: app.clock.now, email: nil)
                    )
                ]
            )
            #expect(try anonymous.decoded(as: Components.Schemas.AuthSession.self).isNewUser)
        }
    }

    /// A database from before may hold two accounts with one address: granting by that address is refused
    /// with both ids, and the id decides.
    @Test(arguments: Backend.available)
    func operatorRightsGoToOneAccountNamedWithoutAGuess(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let first = try await app.devSignIn("bo@example.com").user.id
            let now = app.clock.now
            let twin = User(
                id: User.ID("twin-of-bo"),
                email: "bo@example.com",
                profile: .initial(
                    suggestedName: nil,
                    email: "bo@example.com",
                    timeZone: "UTC",
                    onboarding: app.engine.profile.onboarding,
                    units: app.engine.profile.units,
                    now: now
                ),
                createdAt: now.addingTimeInterval(1)
            )
            try await app.store.transaction { tx in try await tx.users.insert(twin, provider: "legacy", subject: "bo") }
            let operators = Operators(store: app.store)
            await #expect(throws: DomainError.self) { try await operators.set(true, email: "bo@example.com") }
            #expect(try await operators.list().isEmpty, "nothing granted on a guess")
            #expect(try await operators.set(true, email: first).id.rawValue == first)
            #expect(try await operators.list().map(\.id.rawValue) == [first])
        }
    }

    @Test(arguments: Backend.available)
    func aValidAppleTokenSignsIn(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.apple.idToken(
                app.apple.claims(subject: "001.apple", now: app.clock.now, name: nil)
            )
            let response = try await app.request(.post, "/api/auth/apple", json: ["idToken": token, "name": "Bo"])
            #expect(response.status == .ok)
            #expect(try response.decoded(as: Components.Schemas.AuthSession.self).user.displayName == "Bo")
        }
    }

    /// Every way an ID token can be wrong; none may sign anybody in.
    enum BadToken: String, CaseIterable, CustomTestStringConvertible {
        case expired, issuedInTheFuture, wrongAudience, wrongIssuer, forgedSignature, hmacAlgorithmConfusion, garbage,
            otherProvider

        var testDescription: String { self.rawValue }
    }

    @Test(arguments: Backend.available, BadToken.allCases)
    func aBadGoogleTokenIsRefusedWith401(_ backend: Backend, bad: BadToken) async throws {
        try await withTestApp(backend) { app async throws in
            let now = app.clock.now
            var claims = app.google.claims(now: now)
            var token: String
            switch bad {
            case .expired:
                claims.issuedAt = now.addingTimeInterval(-7200)
                claims.expiresAt = now.addingTimeInterval(-3600)
                token = try await app.google.idToken(claims)
            case .issuedInTheFuture:
                claims.issuedAt = now.addingTimeInterval(600)
                claims.expiresAt = now.addingTimeInterval(4200)
                token = try await app.google.idToken(claims)
            case .wrongAudience:
                token = try await app.google.idToken(app.google.claims(audience: "someone-else", now: now))
            case .wrongIssuer:
                claims.issuer = "https://evil.example.com"
                token = try await app.google.idToken(claims)
            case .forgedSignature:
                token = try await app.google.forger.idToken(claims)
            case .hmacAlgorithmConfusion:
                token = try await app.google.hmacConfusionToken(claims)
            case .garbage:
                token = "not.a.jwt"
            case .otherProvider:
                token = try await app.apple.idToken(app.apple.claims(now: now))
            }
            let response = try await app.request(.post, "/api/auth/google", json: ["idToken": token])
            #expect(response.status == .unauthorized)
            #expect(try response.problemType() == "/problems/unauthenticated")
            let users = try await app.store.transaction {
                try await $0.users.find(provider: "google", subject: "subject-1")
            }
            #expect(users == nil)
        }
    }

    @Test(arguments: Backend.available)
    func aProviderWithoutClientIDsIsA404(_ backend: Backend) async throws {
        try await withTestApp(backend, providerSignIn: false) { app async throws in
            let token = try await app.google.idToken(app.google.claims(now: app.clock.now))
            for path in ["/api/auth/google", "/api/auth/apple"] {
                let response = try await app.request(.post, path, json: ["idToken": token])
                #expect(response.status == .notFound)
                #expect(try response.problemType() == "/problems/not-found")
            }
        }
    }

    @Test(arguments: Backend.available)
    func devLoginIsA404UnlessEnabled(_ backend: Backend) async throws {
        try await withTestApp(backend, devLogin: false) { app async throws in
            let response = try await app.request(.post, "/api/auth/dev", json: ["email": "ana@example.com"])
            #expect(response.status == .notFound)
            #expect(try response.problemType() == "/problems/not-found")
        }
    }

    @Test(arguments: Backend.available)
    func devLoginRefusesSomethingThatIsNotAnEmail(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let response = try await app.request(.post, "/api/auth/dev", json: ["email": "not an email"])
            #expect(response.status == .unprocessableContent)
            let errors = try response.problem().fields
            #expect(errors.first == "email")
        }
    }
}
