import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension API {
    func getUserKudos(_ input: Operations.GetUserKudos.Input) async throws -> Operations.GetUserKudos.Output {
        let person = User.ID(input.path.id)
        let tally = try await self.engine.kudos.tally(of: person, seenBy: try RequestCaller.required().userID)
        return .ok(.init(body: .json(.init(person, tally))))
    }

    func giveKudos(_ input: Operations.GiveKudos.Input) async throws -> Operations.GiveKudos.Output {
        let person = User.ID(input.path.id)
        let tally = try await self.engine.kudos.give(to: person, by: try RequestCaller.required().userID)
        return .ok(.init(body: .json(.init(person, tally))))
    }

    func takeBackKudos(_ input: Operations.TakeBackKudos.Input) async throws -> Operations.TakeBackKudos.Output {
        let person = User.ID(input.path.id)
        let tally = try await self.engine.kudos.takeBack(from: person, by: try RequestCaller.required().userID)
        return .ok(.init(body: .json(.init(person, tally))))
    }
}
