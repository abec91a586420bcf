import FitCircleAPI
import FitCircleEngine

extension API {
    func getConfig(_ input: Operations.GetConfig.Input) async throws -> Operations.GetConfig.Output {
        .ok(.init(body: .json(.init(self.engine.profile, signIn: self.engine.accounts.availableSignIn))))
    }
}
