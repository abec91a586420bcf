import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension Components.Schemas.Friend {
    init(_ friend: Friends.Friend) {
        let row = friend.row
        self.init(
            userId: row.userID.rawValue,
            displayName: row.displayName,
            photoUrl: friend.showsPhoto ? photoURL(of: row.userID) : nil,
            since: row.since,
            recent: .init(
                workouts: row.recentWorkouts,
                distanceMeters: row.recentDistanceMeters,
                durationSeconds: row.recentDurationSeconds,
                lastWorkoutAt: row.lastWorkoutAt
            )
        )
    }
}

extension Components.Schemas.Person {
    init(_ person: Friends.Person) {
        self.init(
            userId: person.userID.rawValue,
            displayName: person.displayName,
            photoUrl: person.showsPhoto ? photoURL(of: person.userID) : nil,
            since: person.since
        )
    }
}

extension Components.Schemas.PersonFound {
    init(_ found: Friends.Found) {
        self.init(
            userId: found.userID.rawValue,
            displayName: found.displayName,
            photoUrl: found.showsPhoto ? photoURL(of: found.userID) : nil,
            pendingRequest: found.pending.map { $0 == .outgoing ? .outgoing : .incoming }
        )
    }
}

extension Components.Schemas.Reactions {
    init(_ reactions: Friends.Reactions) {
        self.init(counts: .init(additionalProperties: reactions.counts), mine: reactions.mine.sorted())
    }
}

extension Components.Schemas.FriendFeedPage {
    /// A page of at most `limit` entries; a full one tells where the next starts.
    init(_ entries: [Friends.FeedEntry], limit: Int) throws {
        let next =
            entries.count == limit
            ? entries.last.map {
                ActivityCursor.encode(occurredAt: $0.activity.event.occurredAt, id: $0.activity.event.id)
            } : nil
        self.init(items: try entries.compactMap(Components.Schemas.FriendFeedItem.init), nextCursor: next)
    }
}

extension Components.Schemas.FriendFeedItem {
    /// Only workouts are in the feed; anything else maps to nothing.
    init?(_ entry: Friends.FeedEntry) throws {
        let event = entry.activity.event
        guard case .workout(let workout) = event.payload else { return nil }
        self.init(
            activityId: event.id.rawValue,
            userId: event.userID.rawValue,
            displayName: entry.activity.authorName,
            photoUrl: entry.showsPhoto ? photoURL(of: event.userID) : nil,
            workoutType: try mapped(workout.type),
            occurredAt: event.occurredAt,
            durationSeconds: workout.durationSeconds,
            distanceMeters: workout.distanceMeters,
            paceSecondsPerKm: workout.paceSecondsPerKilometer,
            calories: workout.calories,
            routeThumbnail: entry.routeThumbnail,
            reps: workout.reps,
            series: workout.series,
            reactions: .init(Friends.Reactions(counts: entry.activity.reactions, mine: entry.activity.mine))
        )
    }
}

extension Components.Schemas.WorkoutSummary {
    /// What another person sees of a workout (review I45: not its `clientEventId` or time zone); anything
    /// but a workout maps to nothing.
    init?(_ event: ActivityEvent) throws {
        guard case .workout(let workout) = event.payload else { return nil }
        self.init(
            activityId: event.id.rawValue,
            workoutType: try mapped(workout.type),
            occurredAt: event.occurredAt,
            durationSeconds: workout.durationSeconds,
            distanceMeters: workout.distanceMeters,
            paceSecondsPerKm: workout.paceSecondsPerKilometer,
            calories: workout.calories,
            reps: workout.reps,
            series: workout.series
        )
    }
}

extension Components.Schemas.PersonProfile {
    init(_ person: Profiles.PersonView) throws {
        let friendship: FriendshipPayload =
            person.isSelf
            ? ._self
            : person.edge.areFriends
                ? .friends
                : person.edge.blockedByMe
                    ? .blocked
                    : person.edge.pending.map { $0 == .outgoing ? .outgoing : .incoming } ?? .none
        self.init(
            userId: person.userID.rawValue,
            displayName: person.displayName,
            photoUrl: person.showsPhoto ? photoURL(of: person.userID) : nil,
            age: person.age,
            weightKg: person.weightKg,
            heightCm: person.heightCm,
            friendship: friendship,
            statistics: try person.statistics.map { statistics in
                .init(
                    workouts: statistics.workouts,
                    distanceMeters: statistics.distanceMeters,
                    durationSeconds: statistics.durationSeconds,
                    personalRecords: try statistics.records.map(Components.Schemas.PersonalRecord.init),
                    recentWorkouts: try statistics.recentWorkouts.compactMap(Components.Schemas.WorkoutSummary.init),
                    lastThirtyDays: statistics.lastThirtyDays.map { day in
                        .init(date: day.date.iso, steps: day.steps, pushups: day.pushups, weightKg: day.weightKg)
                    }
                )
            }
        )
    }
}
