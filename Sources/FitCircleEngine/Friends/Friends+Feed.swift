public import FitCircleCore
public import FitCircleStore
public import Foundation

/// The friends' feed and reactions (spec 004, R7): the workouts of the caller and their friends that the
/// policy lets them see (`ActivityAccess`), newest first, with the reactions friends left.
extension Friends {
    /// A workout as the caller sees it in the feed.
    public struct FeedEntry: Equatable, Sendable {
        public var activity: FeedActivity
        public var showsPhoto: Bool
        /// A few points of the route, for a thumbnail (`Polyline.thumbnail`).
        public var routeThumbnail: String?
    }

    /// What a first page was built from, to ask later whether any of it changed (the store's `ChangeMark`).
    public typealias FeedPageMark = ChangeMark

    /// A page's workouts when the caller does not say.
    public static let feedPageSize = 20

    /// The caller's first page of the feed (every type, `feedPageSize` workouts), with the mark of what it was
    /// built from (nil while the store's memory does not serve): an answer made of it may be served again
    /// while `isCurrent(mark)` (issue 42, `FeedRead`).
    public func firstFeedPage(of user: User.ID) async throws -> (entries: [FeedEntry], mark: FeedPageMark?) {
        // Read before the page, so that a change landing meanwhile leaves the page's mark already stale.
        let stamp = self.store.changeStamp
        let entries = try await self.feed(of: user, type: nil, before: nil, limit: Self.feedPageSize)
        let mark = stamp.map { stamp in
            self.store.feedPageMark(
                of: user,
                authors: entries.map(\.activity.event.userID),
                workouts: entries.map(\.activity.event.id),
                readAfter: stamp
            )
        }
        return (entries, mark)
    }

    /// Whether a first page built under `mark` is what a read would build now.
    public func isCurrent(_ mark: FeedPageMark) -> Bool {
        self.store.unchanged(mark)
    }

    public func feed(of user: User.ID, type: WorkoutType?, before cursor: (Date, ActivityEvent.ID)?, limit: Int)
        async throws -> [FeedEntry]
    {
        try await self.entries(of: user, type: type, before: cursor, only: nil, limit: limit)
    }

    /// One workout as the caller's feed shows it (the caller's own or a friend's): what a notification's
    /// `fitcircle://activities/{activityId}` opens. 404 for one the feed would not show them.
    public func feedItem(_ id: ActivityEvent.ID, seenBy user: User.ID) async throws -> FeedEntry {
        guard let entry = try await self.entries(of: user, type: nil, before: nil, only: id, limit: 1).first else {
            throw DomainError.notFound(resource: "workout", id: id.rawValue)
        }
        return entry
    }

    private func entries(
        of user: User.ID,
        type: WorkoutType?,
        before cursor: (Date, ActivityEvent.ID)?,
        only id: ActivityEvent.ID?,
        limit: Int
    ) async throws -> [FeedEntry] {
        let audience = FeedAudience(
            own: ActivityAccess.visibleInFeed(isSelf: true, isFriend: false),
            friends: ActivityAccess.visibleInFeed(isSelf: false, isFriend: true)
        )
        let items = try await self.store.read { tx in
            try await tx.feed.friendFeed(
                of: user,
                audience: audience,
                workoutType: type,
                before: cursor,
                only: id,
                limit: limit
            )
        }
        return items.map { item in
            let isSelf = item.event.userID == user
            var route: String?
            if case .workout(let workout) = item.event.payload {
                route = workout.route.flatMap { Polyline.thumbnail(of: $0) }
            }
            return FeedEntry(
                activity: item,
                showsPhoto: ProfileAccess.mayView(
                    photo: item.authorPhoto,
                    ProfileAccess.Relationship(isSelf: isSelf, isFriend: !isSelf)
                ),
                routeThumbnail: route
            )
        }
    }

    /// An activity's reactions as the caller sees them after a change.
    public struct Reactions: Equatable, Sendable {
        public var counts: [String: Int]
        public var mine: Set<String>

        public init(counts: [String: Int], mine: Set<String>) {
            self.counts = counts
            self.mine = mine
        }
    }

    /// Leaves `reaction` on the activity (once per person and reaction); its owner hears of it, at most once
    /// a minute per activity however many react (`reaction_received`).
    public func react(_ reaction: String, to id: ActivityEvent.ID, by user: User.ID) async throws -> Reactions {
        guard self.profile.activities.reactions.contains(reaction) else {
            throw ValidationError(
                field: "reaction",
                reason: "must be one of \(self.profile.activities.reactions.joined(separator: " "))"
            )
        }
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            let (event, me) = try await self.reachable(id, by: user, in: tx)
            if try await tx.feed.addReaction(reaction, to: id, by: user, at: now), event.userID != user {
                let edge = try await tx.friends.edge(from: user, to: event.userID)
                if FriendAccess.decide(.notify, isSelf: false, edge) == .allowed {
                    let minute = Int(now.timeIntervalSince1970 / 60)
                    let candidate = NotificationCandidate(
                        type: .reactionReceived,
                        dedupeKey: "reaction_received:\(id):\(minute)",
                        data: [
                            "name": me.profile.displayName, "reaction": reaction, "activity": event.workoutName,
                            "activityId": id.rawValue,
                        ],
                        actor: user
                    )
                    if let job = try Notifications.raising(
                        candidate,
                        for: event.userID,
                        catalog: self.profile.notifications,
                        ids: self.ids,
                        at: now
                    ) {
                        try await tx.enqueue([job], at: now)
                    }
                }
            }
            let counts = try await tx.feed.reactions(to: [id], seenBy: user)[id]
            return Reactions(counts: counts?.counts ?? [:], mine: counts?.mine ?? [])
        }
    }

    /// Takes the caller's reaction back. One that is not there (taken back already: a retry whose answer was
    /// lost) is done as well; the workout must still be one the caller may see.
    public func unreact(_ reaction: String, from id: ActivityEvent.ID, by user: User.ID) async throws {
        try await self.store.transaction { tx in
            _ = try await self.reachable(id, by: user, in: tx)
            _ = try await tx.feed.removeReaction(reaction, from: id, by: user)
        }
    }

    /// A workout the caller may see (`ActivityAccess`), and the caller's account; 404 otherwise, as for an
    /// activity that does not exist.
    private func reachable(_ id: ActivityEvent.ID, by user: User.ID, in tx: Transaction) async throws -> (
        ActivityEvent, User
    ) {
        guard let me = try await tx.users.find(user) else {
            throw DomainError.notFound(resource: "user", id: user.rawValue)
        }
        guard let stored = try await tx.feed.activity(id), stored.deletedAt == nil else {
            throw DomainError.notFound(resource: "activity", id: id.rawValue)
        }
        let event = stored.event
        let isSelf = event.userID == user
        let isFriend = isSelf ? false : try await tx.friends.edge(from: user, to: event.userID).areFriends
        guard ActivityAccess.mayView(event.visibility, isSelf: isSelf, isFriend: isFriend) else {
            throw DomainError.notFound(resource: "activity", id: id.rawValue)
        }
        guard event.kind == .workout else {
            throw DomainError.refused(Refusal(.notEncourageable, "Only workouts take reactions."))
        }
        return (event, me)
    }
}

extension ActivityEvent {
    /// How a notification names the workout ("run", "walk"…).
    var workoutName: String {
        guard case .workout(let workout) = self.payload else { return "activity" }
        switch workout.type {
        case .running: return "run"
        case .walking: return "walk"
        case .cycling: return "ride"
        case .strength: return "strength workout"
        case .pushups: return "push-ups"
        case .other: return "workout"
        }
    }
}
