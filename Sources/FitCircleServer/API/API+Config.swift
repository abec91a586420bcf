import FitCircleAPI
import FitCircleEngine

extension API {
    func getConfig(_ input: Operations.GetConfig.Input) async throws -> Operations.GetConfig.Output {
        var config = try Components.Schemas.Config(self.engine.profile, signIn: self.engine.accounts.availableSignIn)
        if let caller = RequestCaller.current {
            let variants = try await self.engine.experiments.assignments(of: caller.userID)
            config.experiments = variants.isEmpty ? nil : .init(additionalProperties: variants)
        }
        return .ok(.init(body: .json(config)))
    }
}
