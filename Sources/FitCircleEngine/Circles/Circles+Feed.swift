public import FitCircleCore
public import FitCircleStore
import Foundation

/// The circle's activity feed and one-tap encouragement (spec 000, Features 3 and 5).
extension Circles {
    /// The circle's items newest first (members, and anyone who may see the circle), older than `cursor`.
    public func feed(of id: FitCircle.ID, before cursor: FeedItem.ID?, limit: Int, for user: User.ID) async throws -> (
        rows: [FeedRow], next: FeedItem.ID?
    ) {
        var validator = Validator()
        validator.check((1...100).contains(limit), "limit", "must be between 1 and 100")
        try validator.throwIfInvalid()
        return try await self.store.read { tx in
            _ = try await self.allowed(.read, id, by: user, in: tx)
            var after: FeedItem?
            if let cursor {
                guard let item = try await tx.feed.feedItem(cursor, in: id) else {
                    throw ValidationError(field: "cursor", reason: "names no item of this circle")
                }
                after = item
            }
            let rows = try await tx.feed.feed(of: id, reader: user, before: after, limit: limit + 1)
            let naming = try await Naming.of(
                user,
                for: rows.flatMap { [$0.actorNameAudience] + ($0.actorPhoto.map { [$0.audience] } ?? []) },
                in: tx
            )
            return (Array(rows.prefix(limit)).map(naming.shown), rows.count > limit ? rows[limit - 1].item.id : nil)
        }
    }

    public struct EncouragementOutcome: Equatable, Sendable {
        public var item: FeedItem.ID
        public var encouragements: Int
        public var message: String?
        /// False when the sender had encouraged the item before (nothing changed).
        public var created: Bool
    }

    /// One tap of encouragement on an item, at most once per member and item; its member hears of it
    /// (`social_engagement`).
    public func encourage(_ itemID: FeedItem.ID, in id: FitCircle.ID, message: String?, by user: User.ID) async throws
        -> EncouragementOutcome
    {
        try await self.encourage(in: id, message: message, by: user) { tx in
            guard let item = try await tx.feed.feedItem(itemID, in: id) else {
                throw DomainError.notFound(resource: "feed item", id: itemID.rawValue)
            }
            return item
        }
    }

    /// Encouragement for a member: it goes on their newest item in the circle (what they did last), under
    /// the same rule of one per item and sender.
    public func encourage(member: User.ID, in id: FitCircle.ID, message: String?, by user: User.ID) async throws
        -> EncouragementOutcome
    {
        try await self.encourage(in: id, message: message, by: user) { tx in
            guard try await tx.circles.membership(of: member, in: id) != nil else {
                throw DomainError.notFound(resource: "member", id: member.rawValue)
            }
            guard let item = try await tx.feed.latestFeedItem(of: member, in: id) else {
                throw DomainError.refused(
                    Refusal(.notEncourageable, "The member has nothing in the feed to encourage yet.")
                )
            }
            return item
        }
    }

    private func encourage(
        in id: FitCircle.ID,
        message: String?,
        by user: User.ID,
        on target: @Sendable (Transaction) async throws -> FeedItem
    ) async throws -> EncouragementOutcome {
        let message = try Encouragement.message(message)
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            let circle = try await self.allowed(.participate, id, by: user, in: tx).circle
            guard let sender = try await tx.users.find(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            let item = try await target(tx)
            let itemID = item.id
            guard item.actorID != user else {
                throw DomainError.refused(Refusal(.notEncourageable, "Members encourage others, not their own news."))
            }
            // Someone who blocked the sender cannot be reached by them (`FriendAccess.notify`).
            let edge = try await tx.friends.edge(from: user, to: item.actorID)
            try FriendAccess.decide(.notify, isSelf: false, edge).require("feed item", itemID.rawValue)
            let created = try await tx.feed.encourage(itemID, by: user, message: message, at: now)
            if created {
                var data = [
                    "name": sender.profile.displayName, "circle": circle.name, "circleId": id.rawValue,
                    "itemId": itemID.rawValue,
                ]
                data["message"] = message ?? Encouragement.presets[0]
                let candidate = NotificationCandidate(
                    type: .socialEngagement,
                    dedupeKey: "social_engagement:\(itemID):\(user)",
                    data: data,
                    actor: user
                )
                if let job = try Notifications.raising(
                    candidate,
                    for: item.actorID,
                    catalog: self.rules.base.notifications,
                    ids: self.ids,
                    at: now
                ) {
                    try await tx.enqueue([job], at: now)
                }
            }
            return EncouragementOutcome(
                item: itemID,
                encouragements: try await tx.feed.encouragementCount(of: itemID),
                message: message,
                created: created
            )
        }
    }

    /// How long a stream names people as it read them before it reads again (friendships and blocks).
    static let namingLifetime: Duration = .seconds(5)

    /// Whether `user` may still take part in the circle (its streams ask at each event and every few
    /// seconds). A database that does not answer says nothing against it.
    public func mayTakePart(in id: FitCircle.ID, _ user: User.ID) async -> Bool {
        do {
            _ = try await self.allowed(.participate, id, by: user)
            return true
        } catch is DomainError {
            return false
        } catch {
            return true
        }
    }

    /// A circle's event as one member's stream tells it: everyone named as they are to that member
    /// (`Naming`); a rank change of someone who is "A member" to them names no one.
    public struct StreamUpdate: Sendable {
        public var ranks: [(update: RankUpdate, anonymous: Bool)]
        public var feed: [FeedRow]
    }

    /// What one member's stream keeps between events: who is named how (read again at most every
    /// `namingLifetime`), and the weights' memberships read so far.
    public struct StreamReader: Sendable {
        var naming: Naming
        var namedAt: ContinuousClock.Instant
        var memberships: [User.ID: CircleMembership] = [:]
    }

    /// The circle's events as they happen, for a member, while the member may take part: each event is
    /// authorised again (from this node's memory, which a removal on any node clears), so a removed member
    /// hears nothing more and the stream ends. Who is named how is read again at most every few seconds (a
    /// friendship or a block changed meanwhile reaches the stream then). How long it lasts is the caller's
    /// (the server's `OpenStreams` ends it).
    public func stream(of id: FitCircle.ID, for user: User.ID) async throws -> ToldEvents<StreamReader, StreamUpdate> {
        let (firstNaming, circle) = try await self.store.read { tx in
            let circle = try await self.allowed(.participate, id, by: user, in: tx).circle
            return (
                Naming(
                    viewer: user,
                    friends: try await tx.friends.ids(of: user),
                    blockers: try await tx.friends.blockers(of: user)
                ), circle
            )
        }
        let metric = circle.metric
        return ToldEvents(
            self.events.subscribe(to: .circle(id)),
            state: StreamReader(naming: firstNaming, namedAt: .now)
        ) { reader, event in
            guard await self.mayTakePart(in: id, user) else { return nil }
            if ContinuousClock.now - reader.namedAt > Self.namingLifetime,
                let fresh = try? await Naming.of(user, for: [.friends], store: self.store)
            {
                (reader.naming, reader.namedAt) = (fresh, ContinuousClock.now)
            }
            // The people as the circle's boards show them, from this node's memory: every stream of the circle
            // shares one read of an event's people (thousands of streams used to read them each), and a
            // rename or a privacy change shows at the next event.
            let named = Array(Set(event.ranks.map(\.user) + event.feed.map(\.actorID)))
            let board = self.liveBoard(of: circle, period: .weekly, today: circle.today(at: self.clock.now()))
            let people = (try? await self.store.cachedPeople(named, rankedIn: board)) ?? [:]
            let unknown = named.filter { reader.memberships[$0] == nil }
            if metric == .weightLossPct, !unknown.isEmpty,
                let found = try? await self.store.read({ tx in
                    try await tx.circles.latestMemberships(of: unknown, in: id)
                })
            {
                reader.memberships.merge(found) { _, new in new }
            }
            let (naming, memberships) = (reader.naming, reader.memberships)
            let ranks = event.ranks.map { update in
                var update = update
                let shown = naming.shown(
                    update.value,
                    on: .of(metric, update.period),
                    of: people[update.user],
                    update.user,
                    membership: memberships[update.user]
                )
                (update.value, update.percentOfGoal) = shown
                return (update, naming.shown(people[update.user], update.user).anonymous)
            }
            let feed = event.feed.map { item in
                let person = people[item.actorID]
                return naming.shown(
                    FeedRow(
                        item: item,
                        actorName: person?.name ?? item.data["name"] ?? "",
                        actorPhoto: person?.photo,
                        actorNameAudience: person?.nameAudience ?? .onlyMe,
                        encouragements: 0,
                        encouraged: false
                    )
                )
            }
            return StreamUpdate(ranks: ranks, feed: feed)
        }
    }
}
