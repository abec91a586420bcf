/// Who sees an activity besides its owner: the access policy's rule for activities (spec 004, R11.2–R11.4).
/// A private activity appears to nobody else — in no feed, profile or notification text — and not in its
/// owner's feed either (their own list of activities has it).
public enum ActivityAccess {
    /// The visibilities of someone's activities that a viewer may see in a feed, or react to.
    public static func visibleInFeed(isSelf: Bool, isFriend: Bool) -> Set<ActivityVisibility> {
        isSelf || isFriend ? [.friends] : []
    }

    public static func mayView(_ visibility: ActivityVisibility, isSelf: Bool, isFriend: Bool) -> Bool {
        self.visibleInFeed(isSelf: isSelf, isFriend: isFriend).contains(visibility)
    }

    /// The visibilities of activities that count where other people see the result: a challenge's board
    /// shows a participant's total, so a private workout there would tell the others its exact distance.
    /// A private activity still counts for its owner alone (their day, goals, streak and points).
    public static let countedOnSharedBoards: Set<ActivityVisibility> = [.friends]
}
