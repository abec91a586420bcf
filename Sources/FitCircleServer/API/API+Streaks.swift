import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension API {
    func checkIn(_ input: Operations.CheckIn.Input) async throws -> Operations.CheckIn.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let caller = try RequestCaller.required()
        let result = try await self.engine.streaks.checkIn(
            Streaks.CheckInInput(
                checkIn: CheckIn(mood: body.mood, energy: body.energy, sentiment: body.sentiment.map(mapped)),
                weightKg: body.weightKg,
                date: try localDate(body.date, field: "date")
            ),
            for: caller.userID
        )
        return .created(.init(body: .json(try .init(result))))
    }

    func getCurrentStreak(_ input: Operations.GetCurrentStreak.Input) async throws -> Operations.GetCurrentStreak.Output
    {
        let caller = try RequestCaller.required()
        return .ok(.init(body: .json(try .init(try await self.engine.streaks.current(of: caller.userID)))))
    }

    func freezeStreak(_ input: Operations.FreezeStreak.Input) async throws -> Operations.FreezeStreak.Output {
        let caller = try RequestCaller.required()
        return .ok(.init(body: .json(try .init(try await self.engine.streaks.freeze(for: caller.userID)))))
    }

    func getStreakHistory(_ input: Operations.GetStreakHistory.Input) async throws -> Operations.GetStreakHistory.Output
    {
        let caller = try RequestCaller.required()
        let entries = try await self.engine.streaks.history(
            of: caller.userID,
            from: try localDate(input.query.from, field: "from"),
            to: try localDate(input.query.to, field: "to")
        )
        return .ok(.init(body: .json(.init(entries: try entries.map(Components.Schemas.StreakEntry.init)))))
    }

    func getStreakMilestones(_ input: Operations.GetStreakMilestones.Input) async throws
        -> Operations.GetStreakMilestones.Output
    {
        let caller = try RequestCaller.required()
        let milestones = try await self.engine.streaks.milestones(of: caller.userID)
        return .ok(
            .init(
                body: .json(
                    .init(
                        milestones: milestones.map {
                            .init(count: $0.milestone.count, badge: $0.milestone.badge, reachedOn: $0.reachedOn?.iso)
                        }
                    )
                )
            )
        )
    }
}
