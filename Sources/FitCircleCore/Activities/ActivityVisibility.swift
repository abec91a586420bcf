/// Who may see an activity besides its owner (spec 004, R11.3): friends, or nobody. Either way it counts for
/// the owner's own goals, streaks and points.
public enum ActivityVisibility: String, CaseIterable, Equatable, Sendable, Codable {
    case friends
    case `private`
}
