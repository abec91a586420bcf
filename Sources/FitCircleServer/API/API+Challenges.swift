import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation
import OpenAPIRuntime

extension API {
    func createCompetition(_ input: Operations.CreateCompetition.Input) async throws
        -> Operations.CreateCompetition.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let view = try await self.engine.challenges.create(
            try body.input,
            templateID: body.templateId,
            by: try RequestCaller.required().userID
        )
        return .created(.init(body: .json(try .init(view))))
    }

    func listCompetitions(_ input: Operations.ListCompetitions.Input) async throws -> Operations.ListCompetitions.Output
    {
        let user = try RequestCaller.required().userID
        let open = input.query.scope == .open
        let list: PageCursor.List = open ? .openChallenges : .myChallenges
        let after = try input.query.cursor.map { try InstantCursor.decode($0, of: list) }
        let limit = input.query.limit ?? Challenges.listPageSize
        let page =
            open
            ? try await self.engine.challenges.listed(for: user, after: after, limit: limit)
            : try await self.engine.challenges.mine(user, after: after, limit: limit)
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try page.items.map(Components.Schemas.Competition.init),
                        nextCursor: page.next.map { InstantCursor.encode(list, $0) }
                    )
                )
            )
        )
    }

    func listCompetitionTemplates(_ input: Operations.ListCompetitionTemplates.Input) async throws
        -> Operations.ListCompetitionTemplates.Output
    {
        let templates = try await self.engine.challenges.templates(
            for: try RequestCaller.required().userID,
            category: input.query.category.map { (try mapped($0) as ChallengeTemplate.Category) }
        )
        return .ok(.init(body: .json(.init(items: try templates.map(Components.Schemas.CompetitionTemplate.init)))))
    }

    func getCompetition(_ input: Operations.GetCompetition.Input) async throws -> Operations.GetCompetition.Output {
        let view = try await self.engine.challenges.challenge(
            Challenge.ID(input.path.id),
            for: try RequestCaller.required().userID,
            code: try JoinCode.given(joinCode: input.query.joinCode, code: input.query.code)
        )
        return .ok(.init(body: .json(try .init(view))))
    }

    func joinCompetition(_ input: Operations.JoinCompetition.Input) async throws -> Operations.JoinCompetition.Output {
        var code: String?
        if case .json(let body)? = input.body { code = try JoinCode.given(joinCode: body.joinCode, code: body.code) }
        let view = try await self.engine.challenges.join(
            Challenge.ID(input.path.id),
            code: code,
            by: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(try .init(view))))
    }

    func declineCompetition(_ input: Operations.DeclineCompetition.Input) async throws
        -> Operations.DeclineCompetition.Output
    {
        _ = try await self.engine.challenges.decline(
            Challenge.ID(input.path.id),
            by: try RequestCaller.required().userID
        )
        return .noContent(.init())
    }

    func leaveCompetition(_ input: Operations.LeaveCompetition.Input) async throws -> Operations.LeaveCompetition.Output
    {
        _ = try await self.engine.challenges.leave(Challenge.ID(input.path.id), by: try RequestCaller.required().userID)
        return .noContent(.init())
    }

    func getCompetitionLeaderboard(_ input: Operations.GetCompetitionLeaderboard.Input) async throws
        -> Operations.GetCompetitionLeaderboard.Output
    {
        let limit = input.query.limit ?? Challenges.boardPageSize
        guard (1...100).contains(limit) else {
            throw ValidationError(field: "limit", reason: "must be between 1 and 100")
        }
        let cursor = try input.query.cursor.map(BoardCursor.decode)
        let board = try await self.engine.challenges.leaderboard(
            Challenge.ID(input.path.id),
            for: try RequestCaller.required(),
            after: cursor,
            limit: limit
        )
        return .ok(.init(body: .json(try .init(board))))
    }

    func streamCompetition(_ input: Operations.StreamCompetition.Input) async throws
        -> Operations.StreamCompetition.Output
    {
        let seconds = input.query.seconds ?? 300
        guard (1...3_600).contains(seconds) else {
            throw ValidationError(field: "seconds", reason: "must be between 1 and 3600")
        }
        let caller = try RequestCaller.required()
        let body = try await self.streams.body(
            of: caller,
            accounts: self.engine.accounts,
            for: .seconds(seconds),
            first: [LiveEvents.ready]
        ) {
            try await self.engine.challenges.stream(of: Challenge.ID(input.path.id), for: caller.userID)
        } encode: { ranks in
            try ranks.map { try CircleStreamEvent.rank(update: $0.update, anonymous: $0.anonymous).encoded }
        }
        return .ok(.init(body: .textEventStream(body)))
    }

    func getChallengeRecord(_ input: Operations.GetChallengeRecord.Input) async throws
        -> Operations.GetChallengeRecord.Output
    {
        let record = try await self.engine.challenges.record(
            of: User.ID(input.path.id),
            for: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(.init(record))))
    }

    func getRivalry(_ input: Operations.GetRivalry.Input) async throws -> Operations.GetRivalry.Output {
        let rival = User.ID(input.path.id)
        let found = try await self.engine.challenges.rivalry(of: try RequestCaller.required().userID, with: rival)
        return .ok(
            .init(
                body: .json(
                    .init(
                        rivalId: rival.rawValue,
                        record: .init(found.rivalry),
                        lastFive: try found.lastFive.map { meeting in
                            .init(
                                competitionId: meeting.challenge.id.rawValue,
                                name: meeting.challenge.name,
                                _type: try mapped(meeting.challenge.type),
                                outcome: try mapped(meeting.outcome),
                                settledAt: meeting.challenge.settledAt
                            )
                        },
                        favouriteTypes: try found.favouriteTypes.map { try mapped($0) }
                    )
                )
            )
        )
    }

    func listRivals(_ input: Operations.ListRivals.Input) async throws -> Operations.ListRivals.Output {
        let rivals = try await self.engine.challenges.rivals(of: try RequestCaller.required().userID)
        return .ok(
            .init(
                body: .json(
                    .init(
                        top: rivals.top.map(Components.Schemas.Rival.init),
                        nemesis: rivals.nemesis.map(Components.Schemas.Rival.init),
                        dominated: rivals.dominated.map(Components.Schemas.Rival.init)
                    )
                )
            )
        )
    }
}
