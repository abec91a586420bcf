import FitCircleTesting
import Foundation
import Testing

@testable import FitCircleClient

/// Sign-in with a provider's ID token, the session kept in a 0600 file across launches, the token refreshed
/// before it expires, and sign-out — in process, on the test clock.
struct SessionTests {
    @Test(arguments: Backend.available)
    func aProviderSignInIsKeptAcrossLaunchesRefreshedAheadOfExpiryAndEndedBySignOut(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            let storage = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: storage) }
            let file = storage.appendingPathComponent("session.json")
            func launch() async throws -> FitCircle {
                try await FitCircle(
                    .init(
                        baseURL: URL(string: "http://in-process")!,
                        storageDirectory: storage,
                        sessionStore: FileSessionStore(url: file),
                        now: { app.clock.now },
                        transport: InProcessTransport(app: app)
                    )
                )
            }
            let device = try await launch()
            let profile = try await device.signIn(
                google: try await app.google.idToken(app.google.claims(now: app.clock.now))
            )
            #expect(profile.email == "ana@example.com")
            let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(permissions == 0o600)

            // The next launch is signed in. Fourteen and a half minutes on, the 15-minute token is within the
            // minute's margin: it is exchanged before the call, not after a 401.
            let relaunched = try await launch()
            let first = try #require(await relaunched.session)
            app.clock.advance(by: 14.5 * 60)
            _ = try await relaunched.profile()
            #expect(await relaunched.authenticator.refreshes == 1)
            let second = try #require(await relaunched.session)
            #expect(second.accessToken != first.accessToken && second.refreshToken != first.refreshToken)
            #expect(
                try FileSessionStore(url: file).load() == second,
                "the refreshed pair is what the next launch reads"
            )

            // Signing out ends it on the server too: the old tokens are refused, and the file is gone.
            await relaunched.signOut()
            #expect(await relaunched.session == nil)
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(try await app.request(.get, "/api/user/profile", token: second.accessToken).status == .unauthorized)
            await #expect(throws: FitCircleError.self) { _ = try await relaunched.profile() }

            // Apple's one-time name reaches the new account.
            let apple = try await device.signIn(
                apple: try await app.apple.idToken(
                    app.apple.claims(subject: "001.apple", now: app.clock.now, email: "bo@example.com", name: nil)
                ),
                name: "Bo Lind"
            )
            #expect(apple.displayName == "Bo Lind")
        }
    }

    @Test(arguments: Backend.available)
    func aRefusedRefreshEndsTheSessionAndSaysSo(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            let storage = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: storage) }
            let device = try await FitCircle(
                .init(
                    baseURL: URL(string: "http://in-process")!,
                    storageDirectory: storage,
                    sessionStore: MemorySessionStore(),
                    now: { app.clock.now },
                    transport: InProcessTransport(app: app)
                )
            )
            try await device.signInForDevelopment(email: "ana@example.com")
            // Signed out on another device of the same session: the refresh token is revoked too.
            let session = try #require(await device.session)
            #expect(try await app.request(.post, "/api/auth/signout", token: session.accessToken).status == .noContent)
            do {
                _ = try await device.profile()
                Issue.record("a revoked session answered")
            } catch FitCircleError.sessionEnded(let problem) {
                #expect(problem.status == 401)
            }
            #expect(await device.session == nil)
        }
    }
}
