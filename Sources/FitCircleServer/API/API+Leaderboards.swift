import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation
import OpenAPIRuntime

extension API {
    func getFitCircleLeaderboard(_ input: Operations.GetFitCircleLeaderboard.Input) async throws
        -> Operations.GetFitCircleLeaderboard.Output
    {
        let limit = input.query.limit
        guard (1...100).contains(limit ?? Circles.pageSize) else {
            throw ValidationError(field: "limit", reason: "must be between 1 and 100")
        }
        let cursor = try input.query.cursor.map(BoardCursor.decode)
        let board = try await self.engine.circles.leaderboard(
            of: FitCircle.ID(input.path.id),
            period: input.query.period?.period ?? .weekly,
            after: cursor,
            limit: limit,
            for: try RequestCaller.required()
        )
        return .ok(
            .init(
                headers: .init(fitCircleBoardSource: board.fromIndex ? .index : .database),
                body: .json(try .init(board))
            )
        )
    }

    func getFitCircleMemberStandings(_ input: Operations.GetFitCircleMemberStandings.Input) async throws
        -> Operations.GetFitCircleMemberStandings.Output
    {
        let member = User.ID(input.path.userId)
        let standings = try await self.engine.circles.standings(
            of: member,
            in: FitCircle.ID(input.path.id),
            for: try RequestCaller.required().userID
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        userId: member.rawValue,
                        items: try standings.map { standing in
                            .init(
                                period: try .init(standing.board.period),
                                measure: try mapped(standing.measure),
                                periodStart: standing.board.start.iso,
                                periodEnd: standing.end?.iso,
                                entries: standing.entries,
                                row: .init(standing.row)
                            )
                        }
                    )
                )
            )
        )
    }

    func refreshFitCircleLeaderboard(_ input: Operations.RefreshFitCircleLeaderboard.Input) async throws
        -> Operations.RefreshFitCircleLeaderboard.Output
    {
        let reports = try await self.engine.circles.refreshBoards(
            of: FitCircle.ID(input.path.id),
            by: try RequestCaller.required()
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try reports.map { report in
                            .init(
                                period: try .init(report.board.period),
                                periodStart: report.board.start.iso,
                                entries: report.entries,
                                corrected: report.corrected,
                                indexDifferences: report.indexDifferences
                            )
                        }
                    )
                )
            )
        )
    }

    func getFitCircleLeaderboardHistory(_ input: Operations.GetFitCircleLeaderboardHistory.Input) async throws
        -> Operations.GetFitCircleLeaderboardHistory.Output
    {
        let (limit, top) = (input.query.limit ?? 4, input.query.top ?? 10)
        var validator = Validator()
        validator.check((1...52).contains(limit), "limit", "must be between 1 and 52")
        validator.check((1...100).contains(top), "top", "must be between 1 and 100")
        try validator.throwIfInvalid()
        let before = try localDate(input.query.before, field: "before")
        let boards = try await self.engine.circles.history(
            of: FitCircle.ID(input.path.id),
            period: input.query.period?.period ?? .weekly,
            before: before,
            limit: limit,
            top: top,
            for: try RequestCaller.required().userID
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try boards.map { closed in
                            .init(
                                period: try .init(closed.board.period),
                                measure: try mapped(closed.measure),
                                periodStart: closed.board.start.iso,
                                periodEnd: closed.end?.iso,
                                rows: closed.rows.map(Components.Schemas.BoardRow.init)
                            )
                        }
                    )
                )
            )
        )
    }

    func getFitCircleFeed(_ input: Operations.GetFitCircleFeed.Input) async throws -> Operations.GetFitCircleFeed.Output
    {
        let (rows, next) = try await self.engine.circles.feed(
            of: FitCircle.ID(input.path.id),
            before: try input.query.cursor.map { FeedItem.ID(try PageCursor.id($0, of: .circleFeed)) },
            limit: input.query.limit ?? 30,
            for: try RequestCaller.required().userID
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try rows.map(Components.Schemas.FeedItem.init),
                        nextCursor: next.map { PageCursor.encode(.circleFeed, $0.rawValue) }
                    )
                )
            )
        )
    }

    func encourageFeedItem(_ input: Operations.EncourageFeedItem.Input) async throws
        -> Operations.EncourageFeedItem.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let outcome = try await self.engine.circles.encourage(
            FeedItem.ID(input.path.itemId),
            in: FitCircle.ID(input.path.id),
            message: body.message,
            by: try RequestCaller.required().userID
        )
        let json = Components.Schemas.Encouragement(
            itemId: outcome.item.rawValue,
            encouragements: outcome.encouragements,
            message: outcome.message
        )
        return outcome.created ? .created(.init(body: .json(json))) : .ok(.init(body: .json(json)))
    }

    func encourageFitCircleMember(_ input: Operations.EncourageFitCircleMember.Input) async throws
        -> Operations.EncourageFitCircleMember.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let outcome = try await self.engine.circles.encourage(
            member: User.ID(input.path.userId),
            in: FitCircle.ID(input.path.id),
            message: body.message,
            by: try RequestCaller.required().userID
        )
        let json = Components.Schemas.Encouragement(
            itemId: outcome.item.rawValue,
            encouragements: outcome.encouragements,
            message: outcome.message
        )
        return outcome.created ? .created(.init(body: .json(json))) : .ok(.init(body: .json(json)))
    }

    func streamFitCircle(_ input: Operations.StreamFitCircle.Input) async throws -> Operations.StreamFitCircle.Output {
        let seconds = input.query.seconds ?? 300
        guard (1...3_600).contains(seconds) else {
            throw ValidationError(field: "seconds", reason: "must be between 1 and 3600")
        }
        let caller = try RequestCaller.required()
        let circle = FitCircle.ID(input.path.id)
        let body = try await self.streams.body(
            of: caller,
            accounts: self.engine.accounts,
            for: .seconds(seconds),
            allowed: { [engine = self.engine] in await engine.circles.mayTakePart(in: circle, caller.userID) },
            first: [LiveEvents.ready]
        ) {
            try await self.engine.circles.stream(of: circle, for: caller.userID)
        } encode: { update in
            try (update.ranks.map(CircleStreamEvent.rank) + update.feed.map(CircleStreamEvent.feed)).map {
                try $0.encoded
            }
        }
        return .ok(.init(body: .textEventStream(body)))
    }
}

/// One event of a circle's stream.
enum CircleStreamEvent {
    case rank(update: RankUpdate, anonymous: Bool)
    case feed(FeedRow)

    var encoded: ServerSentEvent {
        get throws {
            switch self {
            case .rank(let update, let anonymous):
                let data = Components.Schemas.RankUpdate(
                    period: try .init(update.period),
                    periodStart: update.periodStart.iso,
                    userId: anonymous ? nil : update.user.rawValue,
                    value: update.value,
                    percentOfGoal: update.percentOfGoal,
                    rank: update.rank,
                    previousRank: update.previousRank
                )
                return try LiveEvents.event(event: "rank", json: data)
            case .feed(let row):
                return try LiveEvents.event(
                    id: row.item.id.rawValue,
                    event: "feed",
                    json: try Components.Schemas.FeedItem(row)
                )
            }
        }
    }
}
