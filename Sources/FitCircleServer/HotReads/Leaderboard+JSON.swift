import FitCircleAPI
import FitCircleCore
import Foundation

// The boards' answers written by hand (`HotReads`): from the generated types, so the mapping stays the one
// in `Leaderboard+Schema.swift`, with the keys of each object in sorted order, as `JSONEncoder` writes them.

extension Components.Schemas.Leaderboard {
    func json(_ writer: inout JSONWriter) {
        writer.object { json in
            json.member("circleId", self.circleId)
            json.member("entries", self.entries)
            json.member("layout", self.layout.rawValue)
            json.member("measure", self.measure?.rawValue)
            json.member("memberCount", self.memberCount)
            json.member("metric", self.metric.rawValue)
            json.member("nextCursor", self.nextCursor)
            json.member("period", self.period.rawValue)
            json.member("periodEnd", self.periodEnd)
            json.member("periodStart", self.periodStart)
            json.key("rows")
            json.array(self.rows) { json, row in row.json(&json) }
        }
    }
}

extension Components.Schemas.BoardRow {
    func json(_ writer: inout JSONWriter) {
        writer.object { json in
            json.member("displayName", self.displayName)
            json.member("isCaller", self.isCaller)
            json.key("movement")
            json.object { movement in
                movement.member("by", self.movement.by)
                movement.member("direction", self.movement.direction.rawValue)
                movement.member("previousRank", self.movement.previousRank)
            }
            json.member("percentOfGoal", self.percentOfGoal)
            json.member("photoUrl", self.photoUrl)
            json.member("rank", self.rank)
            json.member("reachedAt", self.reachedAt.map(InternetDateTranscoder.text))
            json.member("userId", self.userId)
            json.member("value", self.value)
        }
    }
}
