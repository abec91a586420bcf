import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import FitCircleStore

extension Components.Schemas.Friend {
    init(_ friend: Friends.Friend) {
        let row = friend.row
        self.init(
            userId: row.userID.rawValue, displayName: row.displayName, photoUrl: friend.showsPhoto ? photoURL(of: row.userID) : nil,
            since: row.since,
            recent: .init(
                workouts: row.recentWorkouts, distanceMeters: row.recentDistanceMeters, durationSeconds: row.recentDurationSeconds,
                lastWorkoutAt: row.lastWorkoutAt))
    }
}

extension Components.Schemas.Person {
    init(_ person: Friends.Person) {
        self.init(
            userId: person.userID.rawValue, displayName: person.displayName, photoUrl: person.showsPhoto ? photoURL(of: person.userID) : nil,
            since: person.since)
    }
}

extension Components.Schemas.PersonFound {
    init(_ found: Friends.Found) {
        self.init(
            userId: found.userID.rawValue, displayName: found.displayName, photoUrl: found.showsPhoto ? photoURL(of: found.userID) : nil,
            pendingRequest: found.pending.map { $0 == .outgoing ? .outgoing : .incoming })
    }
}
