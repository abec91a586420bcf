import FitCircleAPI
import FitCircleCore
import Foundation

// The friends' feed page written by hand (`FeedRead`): from the generated types, so the mapping stays the one
// in `Friend+Schema.swift`, with the keys of each object in sorted order, as `JSONEncoder` writes them.

extension Components.Schemas.FriendFeedPage {
    func json(_ writer: inout JSONWriter) {
        writer.object { json in
            json.key("items")
            json.array(self.items) { json, item in item.json(&json) }
            json.member("nextCursor", self.nextCursor)
        }
    }
}

extension Components.Schemas.FriendFeedItem {
    func json(_ writer: inout JSONWriter) {
        writer.object { json in
            json.member("activityId", self.activityId)
            json.member("calories", self.calories)
            json.member("displayName", self.displayName)
            json.member("distanceMeters", self.distanceMeters)
            json.member("durationSeconds", self.durationSeconds)
            json.member("occurredAt", InternetDateTranscoder.text(self.occurredAt))
            json.member("paceSecondsPerKm", self.paceSecondsPerKm)
            json.member("photoUrl", self.photoUrl)
            json.key("reactions")
            self.reactions.json(&json)
            json.member("reps", self.reps)
            json.member("routeThumbnail", self.routeThumbnail)
            json.member("series", self.series)
            json.member("userId", self.userId)
            json.member("workoutType", self.workoutType.rawValue)
        }
    }
}

extension Components.Schemas.Reactions {
    func json(_ writer: inout JSONWriter) {
        writer.object { json in
            json.key("counts")
            json.object { counts in
                // `JSONEncoder`'s sorted keys: by their UTF-8 bytes.
                for (reaction, count) in self.counts.additionalProperties.sorted(by: {
                    $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)
                }) {
                    counts.key(reaction)
                    counts.int(count)
                }
            }
            json.key("mine")
            json.array(self.mine) { json, reaction in json.string(reaction) }
        }
    }
}
