public import Foundation

/// A friend, with what they did lately (spec 004, R6.7).
public struct FriendRow: Equatable, Sendable {
    public var userID: User.ID
    public var displayName: String
    public var photo: PersonPhoto?
    public var since: Date
    /// Workouts since the instant the query was given, and their totals.
    public var recentWorkouts: Int
    public var recentDistanceMeters: Double
    public var recentDurationSeconds: Double
    public var lastWorkoutAt: Date?

    public init(
        userID: User.ID,
        displayName: String,
        photo: PersonPhoto?,
        since: Date,
        recentWorkouts: Int,
        recentDistanceMeters: Double,
        recentDurationSeconds: Double,
        lastWorkoutAt: Date?
    ) {
        self.userID = userID
        self.displayName = displayName
        self.photo = photo
        self.since = since
        self.recentWorkouts = recentWorkouts
        self.recentDistanceMeters = recentDistanceMeters
        self.recentDurationSeconds = recentDurationSeconds
        self.lastWorkoutAt = lastWorkoutAt
    }
}

/// Someone on the other end of a request or a block.
public struct PersonSince: Equatable, Sendable {
    public var userID: User.ID
    public var displayName: String
    public var photo: PersonPhoto?
    public var since: Date
    /// The two are members of one circle now (what the photo's rule asks).
    public var sharesCircle: Bool

    public init(
        userID: User.ID,
        displayName: String,
        photo: PersonPhoto?,
        since: Date,
        sharesCircle: Bool
    ) {
        self.userID = userID
        self.displayName = displayName
        self.photo = photo
        self.since = since
        self.sharesCircle = sharesCircle
    }
}
