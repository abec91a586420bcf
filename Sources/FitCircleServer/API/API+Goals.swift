import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension API {
    func getDailyGoals(_ input: Operations.GetDailyGoals.Input) async throws -> Operations.GetDailyGoals.Output {
        let caller = try RequestCaller.required()
        return .ok(.init(body: .json(try .init(try await self.engine.goals.daily(viewedBy: caller)))))
    }

    func generateDailyGoals(_ input: Operations.GenerateDailyGoals.Input) async throws
        -> Operations.GenerateDailyGoals.Output
    {
        let caller = try RequestCaller.required()
        return .ok(.init(body: .json(try .init(try await self.engine.goals.generateDaily(of: caller.userID)))))
    }

    func updateDailyGoalProgress(_ input: Operations.UpdateDailyGoalProgress.Input) async throws
        -> Operations.UpdateDailyGoalProgress.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let caller = try RequestCaller.required()
        let progress = try await self.engine.goals.updateProgress(
            of: Goal.ID(input.path.id),
            to: body.value,
            for: caller.userID
        )
        return .ok(.init(body: .json(try .init(progress))))
    }

    func getDailyGoalHistory(_ input: Operations.GetDailyGoalHistory.Input) async throws
        -> Operations.GetDailyGoalHistory.Output
    {
        let caller = try RequestCaller.required()
        let periods = try await self.engine.goals.dailyHistory(of: caller.userID, days: input.query.days ?? 7)
        return .ok(.init(body: .json(.init(periods: try periods.map(Components.Schemas.GoalPeriod.init)))))
    }

    func getWeeklyGoals(_ input: Operations.GetWeeklyGoals.Input) async throws -> Operations.GetWeeklyGoals.Output {
        let caller = try RequestCaller.required()
        return .ok(.init(body: .json(try .init(try await self.engine.goals.weekly(viewedBy: caller)))))
    }

    func generateWeeklyGoals(_ input: Operations.GenerateWeeklyGoals.Input) async throws
        -> Operations.GenerateWeeklyGoals.Output
    {
        let caller = try RequestCaller.required()
        return .ok(.init(body: .json(try .init(try await self.engine.goals.generateWeekly(of: caller.userID)))))
    }

    func getWeeklyGoalHistory(_ input: Operations.GetWeeklyGoalHistory.Input) async throws
        -> Operations.GetWeeklyGoalHistory.Output
    {
        let caller = try RequestCaller.required()
        let periods = try await self.engine.goals.weeklyHistory(of: caller.userID, weeks: input.query.weeks ?? 4)
        return .ok(.init(body: .json(.init(periods: try periods.map(Components.Schemas.GoalPeriod.init)))))
    }

    func getWeeklySummary(_ input: Operations.GetWeeklySummary.Input) async throws -> Operations.GetWeeklySummary.Output
    {
        let caller = try RequestCaller.required()
        return .ok(.init(body: .json(try .init(try await self.engine.goals.weeklySummary(of: caller.userID)))))
    }

    func chooseWeeklyGoal(_ input: Operations.ChooseWeeklyGoal.Input) async throws -> Operations.ChooseWeeklyGoal.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let caller = try RequestCaller.required()
        let (summary, settings) = try await self.engine.goals.chooseWeekly(mapped(body.choice), for: caller.userID)
        return .ok(.init(body: .json(.init(summary: try .init(summary), settings: try .init(settings, saved: true)))))
    }
}
