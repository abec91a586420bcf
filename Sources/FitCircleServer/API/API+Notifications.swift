import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension API {
    func getNotificationPreferences(_ input: Operations.GetNotificationPreferences.Input) async throws -> Operations.GetNotificationPreferences.Output {
        let caller = try RequestCaller.required()
        let preferences = try await self.engine.notifications.preferences(of: caller.userID)
        return .ok(.init(body: .json(.init(preferences, catalog: self.engine.notifications.catalog))))
    }

    func updateNotificationPreferences(
        _ input: Operations.UpdateNotificationPreferences.Input
    ) async throws -> Operations.UpdateNotificationPreferences.Output {
        guard case .json(let body) = input.body else { throw DomainError.unsupportedMediaType(accepted: ["application/json"]) }
        let caller = try RequestCaller.required()
        let current = try await self.engine.notifications.preferences(of: caller.userID)
        let saved = try await self.engine.notifications.update(try current.applying(body), of: caller.userID)
        return .ok(.init(body: .json(.init(saved, catalog: self.engine.notifications.catalog))))
    }
}
