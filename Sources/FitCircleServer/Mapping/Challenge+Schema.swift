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
                workoutTypes: self.workoutTypes?.map { WorkoutType(rawValue: $0.rawValue)! }, startsAfter: time(self.startsAfter, "startsAfter"),
                startsBefore: time(self.startsBefore, "startsBefore"), minDurationMinutes: self.minDurationMinutes,
                maxDurationMinutes: self.maxDurationMinutes, weekendsOnly: self.weekendsOnly ?? false, minDistanceKm: self.minDistanceKm)
            try validator.throwIfInvalid()
            return ChallengeInput(
                name: self.name, description: self.description, type: self._type.map { ChallengeType(rawValue: $0.rawValue)! },
                goal: self.goal.map { ChallengeRule.Goal(rawValue: $0.rawValue)! }, target: self.target, filter: filter,
                visibility: self.visibility.map { Challenge.Visibility(rawValue: $0.rawValue)! }, startsAt: self.startsAt,
                durationDays: self.durationDays, stake: self.stake, minParticipants: self.minParticipants, maxParticipants: self.maxParticipants,
                invitees: (self.invitees ?? []).map(User.ID.init))
        }
    }
}

extension Components.Schemas.Competition {
    init(_ view: Challenges.View) {
        let challenge = view.challenge
        self.init(
            id: challenge.id.rawValue, name: challenge.name, description: challenge.description, _type: .init(rawValue: challenge.type.rawValue)!,
            rule: .init(challenge.rule), visibility: .init(rawValue: challenge.visibility.rawValue)!,
            joinCode: view.joinCodeShown ? challenge.joinCode : nil, creatorId: challenge.creatorID.rawValue, timeZone: challenge.timeZone,
            startsAt: challenge.startsAt, endsAt: challenge.endsAt, settlesAt: challenge.settlesAt, status: .init(rawValue: view.status.rawValue)!,
            secondsRemaining: view.secondsRemaining, stake: challenge.stake, participantCount: view.participants, escrow: view.escrow,
            minParticipants: challenge.minParticipants, maxParticipants: challenge.maxParticipants,
            myState: view.me.map { .init(rawValue: $0.state.rawValue)! }, myStake: view.me?.staked, templateId: challenge.templateID,
            templateVersion: challenge.templateVersion, createdAt: challenge.createdAt)
    }
}

extension Components.Schemas.CompetitionRule {
    init(_ rule: ChallengeRule) {
        self.init(
            metric: .init(rawValue: rule.metric.rawValue)!, aggregation: .init(rawValue: rule.aggregation.rawValue)!,
            goal: .init(rawValue: rule.goal.rawValue)!, target: rule.target, unit: .init(rawValue: rule.unit)!,
            filter: .init(
                workoutTypes: rule.filter.workoutTypes?.map(\.rawValue), startsAfter: rule.filter.startsAfter?.description,
                startsBefore: rule.filter.startsBefore?.description, minDurationMinutes: rule.filter.minDurationMinutes,
                maxDurationMinutes: rule.filter.maxDurationMinutes, minDistanceKm: rule.filter.minDistanceKm,
                weekendsOnly: rule.filter.weekendsOnly))
    }
}

extension Components.Schemas.CompetitionRow {
    init(_ row: Challenges.Row) {
        self.init(
            rank: row.rank, userId: row.anonymous ? nil : row.user.rawValue, displayName: row.displayName, anonymous: row.anonymous,
            value: row.value, reachedAt: row.reachedAt, isCaller: row.isCaller, won: row.won, payout: row.payout)
    }
}

extension Components.Schemas.CompetitionLeaderboard {
    init(_ board: Challenges.Leaderboard) {
        let rows = board.rows.map(Components.Schemas.CompetitionRow.init)
        self.init(
            competition: .init(board.view), entries: board.entries, rows: rows, me: board.rows.first(where: \.isCaller).map(Components.Schemas.CompetitionRow.init),
            nextCursor: board.nextCursor.map(BoardCursor.encode))
    }
}

extension Components.Schemas.CompetitionTemplate {
    init(_ view: Challenges.TemplateView) {
        let template = view.template
        self.init(
            id: template.id, version: template.version, name: template.name, description: template.description, icon: template.icon,
            category: .init(rawValue: template.category.rawValue)!, tags: template.tags, _type: .init(rawValue: template.type.rawValue)!,
            rule: .init(template.rule), durationDays: template.durationDays, suggestedStake: template.suggestedStake,
            seasonMonths: template.season?.months, popularity: view.popularity)
    }
}

extension Components.Schemas.ChallengeRecord {
    init(_ record: ChallengeRecord) {
        self.init(
            challenges: record.challenges, wins: record.wins, winRate: record.winRate, currentWinStreak: record.currentWinStreak,
            longestWinStreak: record.longestWinStreak, averagePlacement: record.averagePlacement, xpWon: record.xpWon, xpLost: record.xpLost)
    }
}

extension Components.Schemas.Rivalry {
    init(_ rivalry: Rivalry) {
        self.init(
            wins: rivalry.wins, losses: rivalry.losses, draws: rivalry.draws, xpWon: rivalry.xpWon, xpLost: rivalry.xpLost, streak: rivalry.streak,
            lastMetAt: rivalry.lastMetAt)
    }
}

extension Components.Schemas.Rival {
    init(_ rival: Challenges.Rival) {
        self.init(userId: rival.anonymous ? nil : rival.user.rawValue, displayName: rival.displayName, anonymous: rival.anonymous, record: .init(rival.rivalry))
    }
}
