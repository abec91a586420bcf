import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension API {
    func getPointsLedger(_ input: Operations.GetPointsLedger.Input) async throws -> Operations.GetPointsLedger.Output {
        let caller = try RequestCaller.required()
        let page = try await self.engine.rewards.ledger(
            of: caller.userID,
            cursor: try input.query.cursor.map { try PageCursor.id($0, of: .ledger) },
            limit: input.query.limit ?? 50
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try page.lines.map(Components.Schemas.PointsLine.init),
                        nextCursor: page.nextCursor.map { PageCursor.encode(.ledger, $0) }
                    )
                )
            )
        )
    }

    func getDailyPoints(_ input: Operations.GetDailyPoints.Input) async throws -> Operations.GetDailyPoints.Output {
        let caller = try RequestCaller.required()
        let days = try await self.engine.rewards.days(
            of: caller.user,
            from: try localDate(input.query.from, field: "from"),
            to: try localDate(input.query.to, field: "to")
        )
        return .ok(.init(body: .json(.init(days: days.map(Components.Schemas.PointsDay.init)))))
    }

    func getBadges(_ input: Operations.GetBadges.Input) async throws -> Operations.GetBadges.Output {
        let caller = try RequestCaller.required()
        let catalog = try await self.engine.rewards.catalog(of: caller.userID)
        return .ok(
            .init(
                body: .json(
                    .init(
                        badges: try catalog.badges.map(Components.Schemas.Badge.init),
                        dated: catalog.dated.map { .init($0, catalog: nil) },
                        showcase: catalog.showcase
                    )
                )
            )
        )
    }

    func updateBadgeShowcase(_ input: Operations.UpdateBadgeShowcase.Input) async throws
        -> Operations.UpdateBadgeShowcase.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let caller = try RequestCaller.required()
        let badges = try await self.engine.rewards.updateShowcase(body.badgeIds, of: caller.userID)
        return .ok(.init(body: .json(.init(user: caller.userID, badges, catalog: self.engine.profile.rewards.badges))))
    }

    func getUserBadges(_ input: Operations.GetUserBadges.Input) async throws -> Operations.GetUserBadges.Output {
        let user = User.ID(input.path.id)
        let badges = try await self.engine.rewards.badges(of: user, seenBy: try RequestCaller.required().userID)
        return .ok(.init(body: .json(.init(user: user, badges, catalog: self.engine.profile.rewards.badges))))
    }
}
