import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension API {
    func listNewContent(_ input: Operations.ListNewContent.Input) async throws -> Operations.ListNewContent.Output {
        let new = try await self.engine.weeklyContents.new(for: try RequestCaller.required().userID)
        return .ok(
            .init(
                body: .json(
                    .init(week: new.week.description, items: new.items.map(Components.Schemas.WeeklyContent.init))
                )
            )
        )
    }

    func markContentSeen(_ input: Operations.MarkContentSeen.Input) async throws -> Operations.MarkContentSeen.Output {
        let seen = try await self.engine.weeklyContents.markSeen(
            input.path.key,
            by: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(.init(seen))))
    }

    func publishWeeklyContent(_ input: Operations.PublishWeeklyContent.Input) async throws
        -> Operations.PublishWeeklyContent.Output
    {
        let content = try await self.engine.weeklyContents.publish(
            input.path.key,
            week: input.path.week,
            by: try RequestCaller.required()
        )
        return .ok(.init(body: .json(.init(content))))
    }
}

extension Components.Schemas.WeeklyContent {
    init(_ content: FitCircleCore.WeeklyContent) {
        self.init(key: content.key, week: content.week.description, publishedAt: content.publishedAt)
    }
}
