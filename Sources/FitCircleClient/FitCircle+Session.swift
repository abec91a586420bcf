import Foundation

extension FitCircle {
    public typealias Profile = Components.Schemas.Profile

    /// The signed-in person's id and token pair, if any.
    public var session: StoredSession? {
        get async { await self.authenticator.current }
    }

    /// Signs in with the ID token Google's SDK returned to the app.
    @discardableResult
    public func signIn(google idToken: String) async throws -> Profile {
        try await self.begin {
            try await self.openClient.signInWithGoogle(
                body: .json(.init(idToken: idToken, timeZone: self.configuration.timeZone().identifier))
            ).ok.body.json
        }
    }

    /// Signs in with the identity token of Sign in with Apple; `name` is the name Apple gives the app on
    /// the first sign-in only.
    @discardableResult
    public func signIn(apple idToken: String, name: String? = nil) async throws -> Profile {
        try await self.begin {
            try await self.openClient.signInWithApple(
                body: .json(.init(idToken: idToken, name: name, timeZone: self.configuration.timeZone().identifier))
            ).ok.body.json
        }
    }

    /// Signs in by address alone, on a server started with `--dev-login`.
    @discardableResult
    public func signInForDevelopment(email: String, name: String? = nil) async throws -> Profile {
        try await self.begin {
            try await self.openClient.signInForDevelopment(
                body: .json(.init(email: email, displayName: name, timeZone: self.configuration.timeZone().identifier))
            ).ok.body.json
        }
    }

    /// Ends the session on the server and forgets it here, also when the server cannot be reached (its
    /// tokens then lapse on their own). What waits in the outbox stays for the next sign-in.
    public func signOut() async {
        await self.synchronizer.stop()
        if await self.authenticator.current != nil {
            _ = try? await self.call { try await $0.signOut().noContent }
        }
        await self.authenticator.end()
    }

    private func begin(_ signIn: () async throws -> Components.Schemas.AuthSession) async throws -> Profile {
        let session = try await ClientCall.run(signIn)
        try await self.authenticator.begin(StoredSession(session))
        await self.synchronizer.signedIn()
        return session.user
    }
}
