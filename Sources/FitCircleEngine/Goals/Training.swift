public import FitCircleCore
public import FitCircleStore
import Foundation

/// Onboarding recommendations and the training settings they save (spec 001, ONBD-01…04).
public struct Training: Sendable {
    let store: Store
    let clock: WallClock
    let goals: Goals

    /// What the assessment screens ask.
    public struct Assessment: Equatable, Sendable {
        public var level: TrainingSettings.Level
        public var capacity: Int
        public var workoutDaysPerWeek: Int
        /// The daily goal the user picked, if any; else one is recommended.
        public var dailyGoal: Int?

        public init(level: TrainingSettings.Level, capacity: Int, workoutDaysPerWeek: Int, dailyGoal: Int? = nil) {
            self.level = level
            self.capacity = capacity
            self.workoutDaysPerWeek = workoutDaysPerWeek
            self.dailyGoal = dailyGoal
        }
    }

    /// Recommendations for an assessment; nothing is saved.
    public func recommend(_ assessment: Assessment) throws -> TrainingSettings {
        // The answers are checked before any arithmetic on them.
        var answers = TrainingSettings.defaults
        answers.capacity = assessment.capacity
        answers.workoutDaysPerWeek = assessment.workoutDaysPerWeek
        answers.dailyGoal = assessment.dailyGoal ?? answers.dailyGoal
        try answers.validate()
        let settings = TrainingSettings.recommended(
            level: assessment.level,
            capacity: assessment.capacity,
            workoutDaysPerWeek: assessment.workoutDaysPerWeek,
            dailyGoal: assessment.dailyGoal
        )
        try settings.validate()
        return settings
    }

    /// Saves the confirmed settings, or the defaults when onboarding was skipped (`settings` nil); today's
    /// and this week's push-up goals follow the daily goal.
    public func confirm(_ settings: TrainingSettings?, for user: User.ID) async throws -> TrainingSettings {
        let chosen = settings ?? .defaults
        try chosen.validate()
        try await self.store.transaction { tx in
            try await tx.training.save(chosen, of: user, at: self.clock.now())
            try await self.goals.followTraining(of: user, in: tx)
        }
        return chosen
    }

    /// The user's settings and whether they were ever saved (else the defaults apply).
    public func settings(of user: User.ID) async throws -> (settings: TrainingSettings, saved: Bool) {
        let stored = try await self.store.read { tx in try await tx.training.settings(of: user) }
        return (stored ?? .defaults, stored != nil)
    }

    /// Replaces the settings, every value checked as in onboarding.
    public func update(_ settings: TrainingSettings, for user: User.ID) async throws -> TrainingSettings {
        try await self.confirm(settings, for: user)
    }
}
