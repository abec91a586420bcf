import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation

extension Components.Schemas.CompetitionInput {
    /// The body as the engine's input; times of day that do not parse are named here, the rest in Core.
    var input: ChallengeInput {
        get throws {
            var validator = Validator()
            func time(_ text: String?, _ field: String) -> LocalTime? {
                guard let text else { return nil }
                let time = LocalTime(text)
                validator.check(time != nil, field, "must be a time of day written HH:MM")
                return time
            }
            let filter = ChallengeRule.Filter(
                workoutTypes: try self.workoutTypes?.map { (try mapped($0) as WorkoutType) },
                startsAfter: time(self.startsAfter, "startsAfter"),
                startsBefore: time(self.startsBefore, "startsBefore"),
                minDurationMinutes: self.minDurationMinutes,
                maxDurationMinutes: self.maxDurationMinutes,
                weekendsOnly: self.weekendsOnly ?? false,
                minDistanceKm: self.minDistanceKm
            )
            try validator.throwIfInvalid()
            return ChallengeInput(
                name: self.name,
                description: self.description,
                type: try self._type.map { (try mapped($0) as ChallengeType) },
                goal: try self.goal.map { (try mapped($0) as ChallengeRule.Goal) },
                target: self.target,
                filter: filter,
                visibility: try self.visibility.map { (try mapped($0) as Challenge.Visibility) },
                startsAt: self.startsAt,
                durationDays: self.durationDays,
                stake: self.stake,
                minParticipants: self.minParticipants,
                maxParticipants: self.maxParticipants,
                invitees: (self.invitees ?? []).map(User.ID.init)
            )
        }
    }
}

extension Components.Schemas.Competition {
    init(_ view: Challenges.View) throws {
        let challenge = view.challenge
        self.init(
            id: challenge.id.rawValue,
            name: challenge.name,
            description: challenge.description,
            _type: try mapped(challenge.type),
            rule: try .init(challenge.rule),
            visibility: try mapped(challenge.visibility),
            joinCode: view.joinCodeShown ? challenge.joinCode : nil,
            creatorId: challenge.creatorID.rawValue,
            timeZone: challenge.timeZone,
            startsAt: challenge.startsAt,
            endsAt: challenge.endsAt,
            settlesAt: challenge.settlesAt,
            status: try mapped(view.status),
            secondsRemaining: view.secondsRemaining,
            stake: challenge.stake,
            participantCount: view.participants,
            escrow: view.escrow,
            minParticipants: challenge.minParticipants,
            maxParticipants: challenge.maxParticipants,
            myState: try view.me.map { try mapped($0.state) },
            myStake: view.me?.staked,
            myResult: view.me.flatMap { me in
                guard challenge.settledAt != nil, me.state == .joined else { return nil }
                return .init(rank: me.finalRank, value: me.finalValue, won: me.won, payout: me.payout)
            },
            templateId: challenge.templateID,
            templateVersion: challenge.templateVersion,
            createdAt: challenge.createdAt
        )
    }
}

extension Components.Schemas.CompetitionRule {
    init(_ rule: ChallengeRule) throws {
        self.init(
            metric: try mapped(rule.metric),
            aggregation: try mapped(rule.aggregation),
            goal: try mapped(rule.goal),
            target: rule.target,
            weeklyTarget: rule.weeklyTarget,
            unit: try mapped(raw: rule.unit),
            filter: .init(
                workoutTypes: rule.filter.workoutTypes?.map(\.rawValue),
                startsAfter: rule.filter.startsAfter?.description,
                startsBefore: rule.filter.startsBefore?.description,
                minDurationMinutes: rule.filter.minDurationMinutes,
                maxDurationMinutes: rule.filter.maxDurationMinutes,
                minDistanceKm: rule.filter.minDistanceKm,
                weekendsOnly: rule.filter.weekendsOnly
            )
        )
    }
}

extension Components.Schemas.CompetitionRow {
    init(_ row: Challenges.Row) {
        self.init(
            rank: row.rank,
            userId: row.anonymous ? nil : row.user.rawValue,
            displayName: row.displayName,
            anonymous: row.anonymous,
            value: row.value,
            reachedAt: row.reachedAt,
            isCaller: row.isCaller,
            won: row.won,
            payout: row.payout
        )
    }
}

extension Components.Schemas.CompetitionLeaderboard {
    init(_ board: Challenges.Leaderboard) throws {
        let rows = board.rows.map(Components.Schemas.CompetitionRow.init)
        self.init(
            competition: try .init(board.view),
            entries: board.entries,
            rows: rows,
            me: board.rows.first(where: \.isCaller).map(Components.Schemas.CompetitionRow.init),
            nextCursor: board.nextCursor.map(BoardCursor.encode)
        )
    }
}

extension Components.Schemas.CompetitionTemplate {
    init(_ view: Challenges.TemplateView) throws {
        let template = view.template
        self.init(
            id: template.id,
            version: template.version,
            name: template.name,
            description: template.description,
            icon: template.icon,
            category: try mapped(template.category),
            tags: template.tags,
            _type: try mapped(template.type),
            rule: try .init(template.rule),
            durationDays: template.durationDays,
            suggestedStake: template.suggestedStake,
            seasonMonths: template.season?.months,
            popularity: view.popularity
        )
    }
}

extension Components.Schemas.ChallengeRecord {
    init(_ record: ChallengeRecord) {
        self.init(
            challenges: record.challenges,
            wins: record.wins,
            winRate: record.winRate,
            currentWinStreak: record.currentWinStreak,
            longestWinStreak: record.longestWinStreak,
            averagePlacement: record.averagePlacement,
            xpWon: record.xpWon,
            xpLost: record.xpLost
        )
    }
}

extension Components.Schemas.Rivalry {
    init(_ rivalry: Rivalry) {
        self.init(
            wins: rivalry.wins,
            losses: rivalry.losses,
            draws: rivalry.draws,
            xpWon: rivalry.xpWon,
            xpLost: rivalry.xpLost,
            streak: rivalry.streak,
            lastMetAt: rivalry.lastMetAt
        )
    }
}

extension Components.Schemas.Rival {
    init(_ rival: Challenges.Rival) {
        self.init(
            userId: rival.anonymous ? nil : rival.user.rawValue,
            displayName: rival.displayName,
            anonymous: rival.anonymous,
            record: .init(rival.rivalry)
        )
    }
}
