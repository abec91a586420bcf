/// A user's bests for one workout type.
public struct PersonalRecords: Equatable, Sendable {
    public var type: WorkoutType
    public var longestDistanceMeters: Double?
    public var longestDurationSeconds: Double?
    public var fastestPaceSecondsPerKilometer: Double?

    public init(
        type: WorkoutType,
        longestDistanceMeters: Double?,
        longestDurationSeconds: Double?,
        fastestPaceSecondsPerKilometer: Double?
    ) {
        self.type = type
        self.longestDistanceMeters = longestDistanceMeters
        self.longestDurationSeconds = longestDurationSeconds
        self.fastestPaceSecondsPerKilometer = fastestPaceSecondsPerKilometer
    }
}
