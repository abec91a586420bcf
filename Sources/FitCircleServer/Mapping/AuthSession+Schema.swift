import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation

extension Components.Schemas.AuthSession {
    init(_ signIn: SignIn, profile: RuleProfile) throws {
        self.init(
            accessToken: signIn.accessToken,
            tokenType: .bearer,
            expiresIn: max(0, Int(signIn.accessTokenExpiresAt.timeIntervalSince(signIn.issuedAt).rounded())),
            accessTokenExpiresAt: signIn.accessTokenExpiresAt,
            refreshToken: signIn.refreshToken,
            refreshTokenExpiresAt: signIn.refreshTokenExpiresAt,
            isNewUser: signIn.isNewUser,
            user: try .init(signIn.user, profile: profile)
        )
    }
}
