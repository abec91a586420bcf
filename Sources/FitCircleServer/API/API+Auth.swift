import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension API {
    func signInWithGoogle(_ input: Operations.SignInWithGoogle.Input) async throws -> Operations.SignInWithGoogle.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let signIn = try await self.engine.accounts.signIn(
            with: .google,
            idToken: body.idToken,
            name: body.name,
            timeZone: body.timeZone
        )
        return .ok(.init(body: .json(try .init(signIn, profile: self.engine.profile))))
    }

    func signInWithApple(_ input: Operations.SignInWithApple.Input) async throws -> Operations.SignInWithApple.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let signIn = try await self.engine.accounts.signIn(
            with: .apple,
            idToken: body.idToken,
            name: body.name,
            timeZone: body.timeZone
        )
        return .ok(.init(body: .json(try .init(signIn, profile: self.engine.profile))))
    }

    func signInForDevelopment(_ input: Operations.SignInForDevelopment.Input) async throws
        -> Operations.SignInForDevelopment.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let signIn = try await self.engine.accounts.devSignIn(
            email: body.email,
            name: body.displayName,
            timeZone: body.timeZone
        )
        return .ok(.init(body: .json(try .init(signIn, profile: self.engine.profile))))
    }

    func refreshTokens(_ input: Operations.RefreshTokens.Input) async throws -> Operations.RefreshTokens.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let signIn = try await self.engine.accounts.refresh(body.refreshToken)
        return .ok(.init(body: .json(try .init(signIn, profile: self.engine.profile))))
    }

    func signOut(_ input: Operations.SignOut.Input) async throws -> Operations.SignOut.Output {
        try await self.engine.accounts.signOut(try RequestCaller.required())
        return .noContent(.init())
    }
}
