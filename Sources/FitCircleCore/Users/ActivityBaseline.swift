/// How active a newcomer says they are, which sets the step goal of their first days (spec 000 F1 and
/// Flow 1: "conservative daily goals (5K steps)" for a sedentary start, 7,000 for a moderate one).
public enum ActivityBaseline: String, CaseIterable, Equatable, Sendable, Codable {
    case sedentary
    case moderate
}

extension ActivityBaseline {
    /// The baseline told at onboarding, else the one the training level implies (a beginner is sedentary).
    public static func of(_ profile: UserProfile, level: TrainingSettings.Level) -> ActivityBaseline {
        profile.activityBaseline ?? (level == .beginner ? .sedentary : .moderate)
    }
}
