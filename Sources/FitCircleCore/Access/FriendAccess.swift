/// Who may reach whom through friendship: the access policy's rule for people outside circles, over the
/// friend edge between caller and person. Someone who blocked the caller does not exist for them (404):
/// they cannot find, request, view or notify that person. Pure: handlers and queries never decide this.
public enum FriendAccess {
    public enum Action: Equatable, Sendable {
        /// Appear in the caller's search, and be named by id (a profile, a request's target).
        case find
        /// Ask to be friends.
        case request
        /// Hear of the caller (a request, an acceptance, a reaction): a notification to the person.
        case notify
    }

    public static func decide(_ action: Action, isSelf: Bool, _ edge: FriendEdge) -> Access {
        if edge.blockedByThem { return .hidden }
        switch action {
        case .find:
            return .allowed
        case .request:
            if isSelf { return .forbidden("You cannot send yourself a friend request.") }
            return edge.blockedByMe ? .forbidden("You blocked this person; unblock them first.") : .allowed
        case .notify:
            return edge.blockedByMe ? .forbidden("You blocked this person.") : .allowed
        }
    }
}
