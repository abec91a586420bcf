/// A push-up trainee's settings (spec 001, ONBD-01…04): what onboarding recommends and the settings
/// screen edits.
public struct TrainingSettings: Equatable, Sendable, Codable {
    public enum Level: String, CaseIterable, Equatable, Sendable, Codable {
        case beginner, intermediate, advanced
    }

    public var level: Level
    /// The most push-ups the user can do in one set.
    public var capacity: Int
    public var workoutDaysPerWeek: Int
    /// Push-ups a day.
    public var dailyGoal: Int

    public init(level: Level, capacity: Int, workoutDaysPerWeek: Int, dailyGoal: Int) {
        self.level = level
        self.capacity = capacity
        self.workoutDaysPerWeek = workoutDaysPerWeek
        self.dailyGoal = dailyGoal
    }

    /// What a user who skipped onboarding trains with (spec 001, ONBD-04).
    public static let defaults = TrainingSettings(level: .intermediate, capacity: 20, workoutDaysPerWeek: 5, dailyGoal: 50)

    /// The week's push-up target: the daily goal on five days (spec 001, weekly goals).
    public var weeklyGoal: Int { self.dailyGoal * 5 }
}
