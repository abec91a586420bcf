import FitCircleClient
import FitCircleCore
import FitCircleTesting
import Foundation
import HummingbirdTesting
import Testing

struct TokenLifecycleTests {
    static func refresh(_ app: TestApp, _ token: String) async throws -> Operations.RefreshTokens.Output {
        try await app.api().refreshTokens(body: .json(.init(refreshToken: token)))
    }

    static func profile(_ app: TestApp, _ access: String) async throws -> Operations.GetProfile.Output {
        try await app.api(access).getProfile()
    }

    @Test(arguments: Backend.available)
    func aRefreshTokenRotatesAndWorksOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let first = try await app.devSignIn().refreshToken
            let next = try await Self.refresh(app, first).ok.body.json.refreshToken
            #expect(next != first)
            _ = try await Self.refresh(app, next).ok
        }
    }

    @Test(arguments: Backend.available)
    func reusingARotatedRefreshTokenRevokesTheWholeFamily(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let stolen = try await app.devSignIn().refreshToken
            let rotated = try await Self.refresh(app, stolen).ok.body.json
            let (legitimate, access) = (rotated.refreshToken, rotated.accessToken)

            let replay = try await Self.refresh(app, stolen)
            #expect(try replay.unauthorized.body.applicationProblemJson._type == "/problems/unauthenticated")

            // The whole session is gone: the newest refresh token and the access token stop working too.
            _ = try await Self.refresh(app, legitimate).unauthorized
            _ = try await Self.profile(app, access).unauthorized
        }
    }

    @Test(arguments: Backend.available)
    func signingOutRevokesTheSessionButNotOtherDevices(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let phone = try await app.devSignIn()
            let tablet = try await app.devSignIn()
            _ = try await app.api(phone.accessToken).signOut().noContent
            _ = try await Self.profile(app, phone.accessToken).unauthorized
            _ = try await Self.refresh(app, phone.refreshToken).unauthorized
            _ = try await Self.profile(app, tablet.accessToken).ok
        }
    }

    @Test(arguments: Backend.available)
    func anAccessTokenExpiresAfterFifteenMinutes(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let access = try await app.devSignIn().accessToken
            app.clock.advance(by: 14 * 60)
            _ = try await Self.profile(app, access).ok
            app.clock.advance(by: 61)
            let expired = try await Self.profile(app, access).unauthorized.body.applicationProblemJson
            #expect(expired.detail == "The access token has expired.")
        }
    }

    @Test(arguments: Backend.available)
    func anExpiredRefreshTokenIsRefused(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let refresh = try await app.devSignIn().refreshToken
            app.clock.advance(by: 31 * 86_400)
            _ = try await Self.refresh(app, refresh).unauthorized
        }
    }

    @Test(arguments: Backend.available)
    func aSessionKeptFreshEndsNinetyDaysAfterItsSignIn(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            var tokens = try await app.devSignIn()
            // Refreshed every 20 days: each refresh token is young, but the session is not.
            for _ in 0..<4 {
                app.clock.advance(by: 20 * 86_400)
                tokens = try await Self.refresh(app, tokens.refreshToken).ok.body.json
            }
            // Day 80: nothing issued now outlives day 90.
            let sessionEnd = app.clock.now.addingTimeInterval(10 * 86_400)
            #expect(abs(tokens.refreshTokenExpiresAt.timeIntervalSince(sessionEnd)) < 1)
            app.clock.advance(by: 10 * 86_400 - 600)
            let last = try await Self.refresh(app, tokens.refreshToken).ok.body.json
            #expect(
                abs(last.accessTokenExpiresAt.timeIntervalSince(sessionEnd)) < 1,
                "the access token ends with the session, 10 minutes on"
            )
            app.clock.advance(by: 601)
            _ = try await Self.profile(app, last.accessToken).unauthorized
            _ = try await Self.refresh(app, last.refreshToken).unauthorized
        }
    }

    @Test(arguments: Backend.available)
    func aDisabledAccountIsLockedOutAtOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let signIn = try await app.devSignIn()
            try await app.store.transaction {
                try await $0.users.setDisabled(app.clock.now, of: User.ID(signIn.user.id))
            }
            _ = try await Self.profile(app, signIn.accessToken).unauthorized
            _ = try await Self.refresh(app, signIn.refreshToken).unauthorized
        }
    }
}

/// Authentication from this node's memory: a known session reads no SQL, and every change of the session or
/// its account through the store is seen by the very next request.
struct AccountCacheTests {
    @Test(arguments: Backend.available)
    func aKnownSessionIsAuthenticatedWithoutSQLUntilItOrItsAccountChanges(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let accounts = app.engine.accounts
            let first = try await accounts.authenticate(accessToken: token)
            let before = app.store.transactionsCompleted
            #expect(try await accounts.authenticate(accessToken: token) == first)
            #expect(app.store.transactionsCompleted == before, "a known session was read again")

            var profile = TestApp.validProfile()
            profile["displayName"] = "Bea"
            #expect(try await app.request(.put, "/api/user/profile", token: token, json: profile).status == .ok)
            #expect(try await app.api(token).getProfile().ok.body.json.displayName == "Bea")

            try await app.store.transaction { try await $0.users.setRole(.operator, of: first.userID) }
            #expect(try await accounts.authenticate(accessToken: token).user.role == .operator)

            try await app.store.transaction { try await $0.users.setDisabled(app.clock.now, of: first.userID) }
            #expect(try await app.request(.get, "/api/user/profile", token: token).status == .unauthorized)
            try await app.store.transaction { try await $0.users.setDisabled(nil, of: first.userID) }
            #expect(try await app.request(.get, "/api/user/profile", token: token).status == .ok)

            // A change the store cannot see into (raw SQL) empties the cache.
            try await app.store.execute(unsafeSQL: "UPDATE users SET display_name = 'Cy'")
            #expect(try await accounts.authenticate(accessToken: token).user.profile.displayName == "Cy")

            #expect(try await app.request(.post, "/api/auth/signout", token: token).status == .noContent)
            #expect(try await app.request(.get, "/api/user/profile", token: token).status == .unauthorized)
        }
    }
}
