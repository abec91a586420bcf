import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension API {
    func syncDailyTotals(_ input: Operations.SyncDailyTotals.Input) async throws -> Operations.SyncDailyTotals.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let caller = try RequestCaller.required()
        let day = try await self.engine.activities.syncDay(
            ActivityInput(body),
            for: caller.userID,
            date: try localDate(body.date, field: "date")
        )
        return .ok(.init(body: .json(try .init(day))))
    }

    func listDailyTotals(_ input: Operations.ListDailyTotals.Input) async throws -> Operations.ListDailyTotals.Output {
        let caller = try RequestCaller.required()
        let days = try await self.engine.activities.days(
            of: caller.user,
            from: try localDate(input.query.from, field: "from"),
            to: try localDate(input.query.to, field: "to")
        )
        return .ok(.init(body: .json(.init(days: try days.map(Components.Schemas.DailyTracking.init)))))
    }
}
