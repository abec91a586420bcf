/// Every notification type the engine can raise, by what raises it. A profile's catalog lists only these
/// (a listed type with no trigger would never go out), and a type raised where the profile does not list
/// it notifies nobody (`Notifications.raising`): `NotificationCatalogTests` holds the profiles to both.
public enum RaisedTypes {
    /// Circles: invitations, rank changes, encouragement, a mate's big day, milestones towards a member's goal.
    public static let circles: Set<String> = [
        "circle_invitation", "leaderboard_change", "leaderboard_passed", "social_engagement", "challenge_milestone", "challenge_milestone_email",
    ]
    /// The account, rewards, streak milestones, goals and the day's nudges.
    public static let others: Set<String> = ["welcome", "achievement", "almost_there", "streak_milestone", "goals_personalized"]

    public static var all: Set<String> {
        Friends.notificationTypes.union(Self.circles).union(Self.others).union(ScheduledTriggers.types).union(Challenges.notificationTypes)
    }
}
