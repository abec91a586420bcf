import FitCircleAPI
import FitCircleCore
import Foundation

// A challenge's board written by hand (`ChallengeBoardRead`): from the generated types, so the mapping stays
// the one in `Challenge+Schema.swift`, with the keys of each object in sorted order, as `JSONEncoder` writes them.

extension Components.Schemas.CompetitionLeaderboard {
    func json(_ writer: inout JSONWriter) {
        writer.object { json in
            json.key("competition")
            self.competition.json(&json)
            json.member("entries", self.entries)
            if let me = self.me {
                json.key("me")
                me.json(&json)
            }
            json.member("nextCursor", self.nextCursor)
            json.key("rows")
            json.array(self.rows) { json, row in row.json(&json) }
        }
    }
}

extension Components.Schemas.CompetitionRow {
    func json(_ writer: inout JSONWriter) {
        writer.object { json in
            json.member("anonymous", self.anonymous)
            json.member("displayName", self.displayName)
            json.member("isCaller", self.isCaller)
            json.member("payout", self.payout)
            json.member("rank", self.rank)
            json.member("reachedAt", self.reachedAt.map(InternetDateTranscoder.text))
            json.member("userId", self.userId)
            json.member("value", self.value)
            json.member("won", self.won)
        }
    }
}

extension Components.Schemas.Competition {
    func json(_ writer: inout JSONWriter) {
        writer.object { json in
            json.member("createdAt", InternetDateTranscoder.text(self.createdAt))
            json.member("creatorId", self.creatorId)
            json.member("description", self.description)
            json.member("endsAt", InternetDateTranscoder.text(self.endsAt))
            json.member("escrow", self.escrow)
            json.member("id", self.id)
            json.member("joinCode", self.joinCode)
            json.member("maxParticipants", self.maxParticipants)
            json.member("minParticipants", self.minParticipants)
            if let result = self.myResult {
                json.key("myResult")
                json.object { written in
                    written.member("payout", result.payout)
                    written.member("rank", result.rank)
                    written.member("value", result.value)
                    written.member("won", result.won)
                }
            }
            json.member("myStake", self.myStake)
            json.member("myState", self.myState?.rawValue)
            json.member("name", self.name)
            json.member("participantCount", self.participantCount)
            json.key("rule")
            self.rule.json(&json)
            json.member("secondsRemaining", self.secondsRemaining)
            json.member("settlesAt", self.settlesAt.map(InternetDateTranscoder.text))
            json.member("stake", self.stake)
            json.member("startsAt", InternetDateTranscoder.text(self.startsAt))
            json.member("status", self.status.rawValue)
            json.member("templateId", self.templateId)
            json.member("templateVersion", self.templateVersion)
            json.member("timeZone", self.timeZone)
            json.member("type", self._type.rawValue)
            json.member("visibility", self.visibility.rawValue)
        }
    }
}

extension Components.Schemas.CompetitionRule {
    func json(_ writer: inout JSONWriter) {
        writer.object { json in
            json.member("aggregation", self.aggregation.rawValue)
            json.key("filter")
            json.object { filter in
                filter.member("maxDurationMinutes", self.filter.maxDurationMinutes)
                filter.member("minDistanceKm", self.filter.minDistanceKm)
                filter.member("minDurationMinutes", self.filter.minDurationMinutes)
                filter.member("startsAfter", self.filter.startsAfter)
                filter.member("startsBefore", self.filter.startsBefore)
                filter.member("weekendsOnly", self.filter.weekendsOnly)
                if let types = self.filter.workoutTypes {
                    filter.key("workoutTypes")
                    filter.array(types) { json, type in json.string(type) }
                }
            }
            json.member("goal", self.goal.rawValue)
            json.member("metric", self.metric.rawValue)
            json.member("target", self.target)
            json.member("unit", self.unit.rawValue)
            json.member("weeklyTarget", self.weeklyTarget)
        }
    }
}
