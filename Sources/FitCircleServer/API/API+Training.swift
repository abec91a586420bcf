import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension API {
    func assessTraining(_ input: Operations.AssessTraining.Input) async throws -> Operations.AssessTraining.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let recommended = try self.engine.training.recommend(
            Training.Assessment(
                level: mapped(body.level),
                capacity: body.capacity,
                workoutDaysPerWeek: body.workoutDaysPerWeek,
                dailyGoal: body.dailyGoal
            )
        )
        return .ok(.init(body: .json(try .init(recommended, saved: false))))
    }

    func confirmTraining(_ input: Operations.ConfirmTraining.Input) async throws -> Operations.ConfirmTraining.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let caller = try RequestCaller.required()
        var chosen: TrainingSettings?
        if body.skipped != true {
            var validator = Validator()
            validator.check(body.level != nil, "level", "is required unless skipped is true")
            validator.check(body.capacity != nil, "capacity", "is required unless skipped is true")
            validator.check(body.workoutDaysPerWeek != nil, "workoutDaysPerWeek", "is required unless skipped is true")
            try validator.throwIfInvalid()
            guard let level = body.level, let capacity = body.capacity, let days = body.workoutDaysPerWeek else {
                throw ValidationError(field: "level", reason: "is required unless skipped is true")
            }
            var settings = try self.engine.training.recommend(
                Training.Assessment(
                    level: try mapped(level),
                    capacity: capacity,
                    workoutDaysPerWeek: days,
                    dailyGoal: body.dailyGoal
                )
            )
            if let series = body.startingSeries { settings.startingSeries = series }
            if let recovery = body.recoverySeconds { settings.recoverySeconds = recovery }
            chosen = settings
        }
        let saved = try await self.engine.training.confirm(chosen, for: caller.userID)
        return .ok(.init(body: .json(try .init(saved, saved: true))))
    }

    func getTrainingSettings(_ input: Operations.GetTrainingSettings.Input) async throws
        -> Operations.GetTrainingSettings.Output
    {
        let caller = try RequestCaller.required()
        let (settings, saved) = try await self.engine.training.settings(of: caller.userID)
        return .ok(.init(body: .json(try .init(settings, saved: saved))))
    }

    func updateTrainingSettings(_ input: Operations.UpdateTrainingSettings.Input) async throws
        -> Operations.UpdateTrainingSettings.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let caller = try RequestCaller.required()
        let settings = TrainingSettings(
            level: try mapped(body.level),
            capacity: body.capacity,
            workoutDaysPerWeek: body.workoutDaysPerWeek,
            dailyGoal: body.dailyGoal,
            startingSeries: body.startingSeries,
            recoverySeconds: body.recoverySeconds
        )
        return .ok(
            .init(
                body: .json(try .init(try await self.engine.training.update(settings, for: caller.userID), saved: true))
            )
        )
    }
}
