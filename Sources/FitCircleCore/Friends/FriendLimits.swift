/// How far friendship reaches: a friend list stays a list (answered whole), and requests, which reach
/// people who never chose the sender, wait in bounded numbers.
public enum FriendLimits {
    public static let maximumFriends = 1_000
    /// Requests one person may have waiting for an answer at once.
    public static let maximumOutgoingRequests = 100
    /// "Recent" in a friend's activity summary: the last 7 days.
    public static let recentDays = 7
}
