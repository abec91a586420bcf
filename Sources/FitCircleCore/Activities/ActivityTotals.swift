public import Foundation

/// What a user did in all: the totals of their profile statistics (spec 004, 5.5).
public struct ActivityTotals: Equatable, Sendable {
    public var distanceMeters: Double
    public var activities: Int
    public var steps: Int
    public var activeDays: Int

    public init(distanceMeters: Double, activities: Int, steps: Int, activeDays: Int) {
        self.distanceMeters = distanceMeters
        self.activities = activities
        self.steps = steps
        self.activeDays = activeDays
    }
}
