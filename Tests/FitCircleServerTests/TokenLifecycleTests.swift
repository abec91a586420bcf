import FitCircleCore
import FitCircleTesting
import Foundation
import HummingbirdTesting
import Testing

struct TokenLifecycleTests {
    @Test(arguments: Backend.available)
    func aRefreshTokenRotatesAndWorksOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let signIn = try await app.devSignIn()
            let first = try #require(signIn["refreshToken"] as? String)
            let rotated = try await app.request(.post, "/api/auth/refresh", json: ["refreshToken": first])
            #expect(rotated.status == .ok)
            let next = try #require(try rotated.jsonObject()["refreshToken"] as? String)
            #expect(next != first)
            let again = try await app.request(.post, "/api/auth/refresh", json: ["refreshToken": next])
            #expect(again.status == .ok)
        }
    }

    @Test(arguments: Backend.available)
    func reusingARotatedRefreshTokenRevokesTheWholeFamily(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let signIn = try await app.devSignIn()
            let stolen = try #require(signIn["refreshToken"] as? String)
            let rotated = try await app.request(.post, "/api/auth/refresh", json: ["refreshToken": stolen]).jsonObject()
            let legitimate = try #require(rotated["refreshToken"] as? String)
            let access = try #require(rotated["accessToken"] as? String)

            let replay = try await app.request(.post, "/api/auth/refresh", json: ["refreshToken": stolen])
            #expect(replay.status == .unauthorized)
            #expect(try replay.problemType() == "/problems/unauthenticated")

            // The whole session is gone: the newest refresh token and the access token stop working too.
            let afterwards = try await app.request(.post, "/api/auth/refresh", json: ["refreshToken": legitimate])
            #expect(afterwards.status == .unauthorized)
            let profile = try await app.request(.get, "/api/user/profile", token: access)
            #expect(profile.status == .unauthorized)
        }
    }

    @Test(arguments: Backend.available)
    func signingOutRevokesTheSessionButNotOtherDevices(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let phone = try await app.devSignIn()
            let tablet = try await app.devSignIn()
            let phoneAccess = try #require(phone["accessToken"] as? String)
            let signOut = try await app.request(.post, "/api/auth/signout", token: phoneAccess)
            #expect(signOut.status == .noContent)
            #expect(try await app.request(.get, "/api/user/profile", token: phoneAccess).status == .unauthorized)
            let refresh = try await app.request(
                .post,
                "/api/auth/refresh",
                json: ["refreshToken": phone["refreshToken"]!]
            )
            #expect(refresh.status == .unauthorized)
            #expect(
                try await app.request(.get, "/api/user/profile", token: tablet["accessToken"] as? String).status == .ok
            )
        }
    }

    @Test(arguments: Backend.available)
    func anAccessTokenExpiresAfterFifteenMinutes(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let access = try #require(try await app.devSignIn()["accessToken"] as? String)
            app.clock.advance(by: 14 * 60)
            #expect(try await app.request(.get, "/api/user/profile", token: access).status == .ok)
            app.clock.advance(by: 61)
            let expired = try await app.request(.get, "/api/user/profile", token: access)
            #expect(expired.status == .unauthorized)
            #expect(try expired.jsonObject()["detail"] as? String == "The access token has expired.")
        }
    }

    @Test(arguments: Backend.available)
    func anExpiredRefreshTokenIsRefused(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let refresh = try #require(try await app.devSignIn()["refreshToken"] as? String)
            app.clock.advance(by: 31 * 86_400)
            #expect(
                try await app.request(.post, "/api/auth/refresh", json: ["refreshToken": refresh]).status
                    == .unauthorized
            )
        }
    }

    @Test(arguments: Backend.available)
    func aSessionKeptFreshEndsNinetyDaysAfterItsSignIn(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            var tokens = try await app.devSignIn()
            // Refreshed every 20 days: each refresh token is young, but the session is not.
            for _ in 0..<4 {
                app.clock.advance(by: 20 * 86_400)
                let refreshed = try await app.request(
                    .post,
                    "/api/auth/refresh",
                    json: ["refreshToken": tokens["refreshToken"]!]
                )
                #expect(refreshed.status == .ok)
                tokens = try refreshed.jsonObject()
            }
            // Day 80: nothing issued now outlives day 90.
            let sessionEnd = app.clock.now.addingTimeInterval(10 * 86_400)
            func instant(_ key: String, of answer: [String: Any]) throws -> Date {
                try #require((answer[key] as? String).flatMap { try? Date.ISO8601FormatStyle().parse($0) })
            }
            #expect(abs(try instant("refreshTokenExpiresAt", of: tokens).timeIntervalSince(sessionEnd)) < 1)
            app.clock.advance(by: 10 * 86_400 - 600)
            let late = try await app.request(
                .post,
                "/api/auth/refresh",
                json: ["refreshToken": tokens["refreshToken"]!]
            )
            #expect(late.status == .ok)
            let last = try late.jsonObject()
            #expect(
                abs(try instant("accessTokenExpiresAt", of: last).timeIntervalSince(sessionEnd)) < 1,
                "the access token ends with the session, 10 minutes on"
            )
            app.clock.advance(by: 601)
            #expect(
                try await app.request(.get, "/api/user/profile", token: last["accessToken"] as? String).status
                    == .unauthorized
            )
            let ended = try await app.request(.post, "/api/auth/refresh", json: ["refreshToken": last["refreshToken"]!])
            #expect(ended.status == .unauthorized)
        }
    }

    @Test(arguments: Backend.available)
    func aDisabledAccountIsLockedOutAtOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let signIn = try await app.devSignIn()
            let id = try #require((signIn["user"] as? [String: Any])?["id"] as? String)
            try await app.store.transaction { try await $0.users.setDisabled(app.clock.now, of: User.ID(id)) }
            #expect(
                try await app.request(.get, "/api/user/profile", token: signIn["accessToken"] as? String).status
                    == .unauthorized
            )
            #expect(
                try await app.request(.post, "/api/auth/refresh", json: ["refreshToken": signIn["refreshToken"]!])
                    .status == .unauthorized
            )
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
            #expect(
                try await app.request(.get, "/api/user/profile", token: token).jsonObject()["displayName"] as? String
                    == "Bea"
            )

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
