public import FitCircleCore
public import FitCircleStore
public import Foundation

/// Friends (spec 004, R6): requests, answers, removal and blocks. A friendship is mutual; requests in both
/// directions become one. Someone who blocked the caller does not exist for them (`FriendAccess`): every
/// use case naming that person answers 404, as for an id that never was.
public struct Friends: Sendable {
    let store: Store
    let profile: RuleProfile
    let ids: IDGenerator
    let clock: WallClock

    public init(store: Store, profile: RuleProfile, ids: IDGenerator, clock: WallClock) {
        self.store = store
        self.profile = profile
        self.ids = ids
        self.clock = clock
    }

    /// Where a request left the two.
    public enum RequestOutcome: String, Sendable {
        /// Waiting for the other's answer.
        case requested
        /// They had asked too, or were friends already.
        case friends
    }

    /// Asks `other` to be friends; if they asked first, the two are friends at once. Asking again while the
    /// request waits answers the same and notifies no one again.
    public func request(_ other: User.ID, by user: User.ID) async throws -> RequestOutcome {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            let (me, edge) = try await self.reach(other, by: user, for: .request, in: tx)
            if edge.areFriends { return .friends }
            if edge.requestedByThem {
                try await self.befriend(me, other, edge, in: tx, at: now)
                return .friends
            }
            if edge.requestedByMe { return .requested }
            guard try await tx.friends.outgoingRequestCount(of: user) < FriendLimits.maximumOutgoingRequests else {
                throw DomainError.refused(
                    Refusal(
                        .limitReached,
                        "You have \(FriendLimits.maximumOutgoingRequests) friend requests waiting for an answer; cancel some first.",
                        facts: ["limit": .number(FriendLimits.maximumOutgoingRequests)]
                    )
                )
            }
            try await Self.requireRoom(for: user, in: tx)
            try await tx.friends.insertRequest(from: user, to: other, at: now)
            // One notice a day per sender and recipient, however often a request is cancelled and sent again.
            let day = me.localDate(at: now)
            try await self.notify(
                other,
                type: .friendRequest,
                key: "friend_request:\(user):\(day)",
                about: me,
                edge: edge,
                in: tx,
                at: now
            )
            return .requested
        }
    }

    /// Accepts the request `other` sent; 404 when there is none, and nothing to do when they are friends
    /// already (accepted before: a retry whose answer was lost).
    public func accept(_ other: User.ID, by user: User.ID) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            let (me, edge) = try await self.reach(other, by: user, for: .find, in: tx)
            // Accepting again (a retry whose answer was lost) finds them friends already: done.
            if edge.areFriends { return }
            guard edge.requestedByThem else {
                throw DomainError.notFound(resource: "friend request from", id: other.rawValue)
            }
            try await self.befriend(me, other, edge, in: tx, at: now)
        }
    }

    /// Declines the request `other` sent (they are not told); 404 when there is none.
    public func decline(_ other: User.ID, by user: User.ID) async throws {
        try await self.store.transaction { tx in
            guard try await tx.friends.deleteRequest(from: other, to: user) else {
                throw DomainError.notFound(resource: "friend request from", id: other.rawValue)
            }
        }
    }

    /// Withdraws the caller's request to `other`; 404 when there is none.
    public func cancel(_ other: User.ID, by user: User.ID) async throws {
        try await self.store.transaction { tx in
            guard try await tx.friends.deleteRequest(from: user, to: other) else {
                throw DomainError.notFound(resource: "friend request to", id: other.rawValue)
            }
        }
    }

    /// Ends the friendship, for both; 404 when the two are not friends.
    public func remove(_ other: User.ID, by user: User.ID) async throws {
        try await self.store.transaction { tx in
            guard try await tx.friends.unfriend(user, other) else {
                throw DomainError.notFound(resource: "friend", id: other.rawValue)
            }
        }
    }

    /// Blocks `other`: the friendship and requests between the two end, and `other` can no longer find,
    /// request, see or notify the caller. Blocking again changes nothing.
    public func block(_ other: User.ID, by user: User.ID) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            guard other != user else { throw ValidationError(field: "userId", reason: "cannot be yourself") }
            // Someone who blocked the caller first can still be blocked back; only an unknown id is refused.
            guard try await tx.users.find(other) != nil else {
                throw DomainError.notFound(resource: "user", id: other.rawValue)
            }
            try await tx.friends.block(other, by: user, at: now)
        }
    }

    public func unblock(_ other: User.ID, by user: User.ID) async throws {
        try await self.store.transaction { tx in
            guard try await tx.friends.unblock(other, by: user) else {
                throw DomainError.notFound(resource: "block of user", id: other.rawValue)
            }
        }
    }

    // MARK: Lists

    /// Someone on the other end of a request or a block, as the caller may see them.
    public struct Person: Equatable, Sendable {
        public var userID: User.ID
        public var displayName: String
        public var showsPhoto: Bool
        public var since: Date
    }

    /// A friend with their recent workouts, as the caller may see them.
    public struct Friend: Equatable, Sendable {
        public var row: FriendRow
        public var showsPhoto: Bool
    }

    /// The caller's friends by name, each with their workouts of the last 7 days that friends may see
    /// (spec 004, R6.7), a page at a time (`after`: the last of the page before; `next` is this page's last
    /// when there may be more).
    public func friends(of user: User.ID, after last: User.ID?, limit: Int) async throws -> (
        items: [Friend], next: User.ID?
    ) {
        try PageLimit.check(limit, within: 1...FriendLimits.maximumFriends)
        let since = self.clock.now().addingTimeInterval(-Double(FriendLimits.recentDays) * 86_400)
        let visible = ActivityAccess.visibleInFeed(isSelf: false, isFriend: true)
        let rows = try await self.store.read { tx in
            try await tx.friends.list(of: user, recentSince: since, visible: visible, after: last, limit: limit)
        }
        let relationship = ProfileAccess.Relationship(isSelf: false, isFriend: true)
        return (
            rows.map { Friend(row: $0, showsPhoto: ProfileAccess.mayView(photo: $0.photo, relationship)) },
            rows.count == limit ? rows.last?.userID : nil
        )
    }

    /// The sizes a page of requests or of blocked people may have, and its size when none is asked.
    public static let peoplePage = 1...200
    public static let peoplePageSize = 50

    /// Requests waiting for the caller's answer (`incoming`) or for others' (outgoing), newest first, a page
    /// at a time (`after`: the page before's last; `next` is this page's last when there are more).
    public func requests(of user: User.ID, incoming: Bool, after last: InstantKey?, limit: Int) async throws -> (
        items: [Person], next: InstantKey?
    ) {
        try PageLimit.check(limit, within: Self.peoplePage)
        let rows = try await self.store.read { tx in
            try await tx.friends.requests(of: user, incoming: incoming, after: last, limit: limit + 1)
        }
        return Self.page(PageOfRows(rows: rows, limit: limit))
    }

    /// The people the caller blocked, the latest first, a page at a time (as `requests`).
    public func blocked(by user: User.ID, after last: InstantKey?, limit: Int) async throws -> (
        items: [Person], next: InstantKey?
    ) {
        try PageLimit.check(limit, within: Self.peoplePage)
        let rows = try await self.store.read { tx in
            try await tx.friends.blockedPeople(of: user, after: last, limit: limit + 1)
        }
        return Self.page(PageOfRows(rows: rows, limit: limit))
    }

    private static func page(_ page: PageOfRows<PersonSince>) -> (items: [Person], next: InstantKey?) {
        (page.items.map(Self.person), page.next { InstantKey(at: $0.since, id: $0.userID.rawValue) })
    }

    private static func person(_ row: PersonSince) -> Person {
        let relationship = ProfileAccess.Relationship(isSelf: false, sharesCircle: row.sharesCircle)
        return Person(
            userID: row.userID,
            displayName: row.displayName,
            showsPhoto: ProfileAccess.mayView(photo: row.photo, relationship),
            since: row.since
        )
    }

    // MARK: Helpers

    /// The caller's account and how `other` stands to them, once the policy lets the caller reach `other`.
    func reach(_ other: User.ID, by user: User.ID, for action: FriendAccess.Action, in tx: Transaction) async throws
        -> (User, FriendEdge)
    {
        let accounts = try await tx.users.locked([user, other])
        guard let me = accounts[user] else { throw DomainError.notFound(resource: "user", id: user.rawValue) }
        guard accounts[other] != nil else { throw DomainError.notFound(resource: "user", id: other.rawValue) }
        let edge = try await tx.friends.edge(from: user, to: other)
        try FriendAccess.decide(action, isSelf: other == user, edge).require("user", other.rawValue)
        return (me, edge)
    }

    /// Makes the two friends (both within their limit) and tells the one who asked.
    private func befriend(_ me: User, _ other: User.ID, _ edge: FriendEdge, in tx: Transaction, at now: Date)
        async throws
    {
        try await Self.requireRoom(for: me.id, in: tx)
        guard try await tx.friends.count(of: other) < FriendLimits.maximumFriends else {
            throw DomainError.refused(
                Refusal(
                    .limitReached,
                    "This person has \(FriendLimits.maximumFriends) friends, the most there may be.",
                    facts: ["limit": .number(FriendLimits.maximumFriends)]
                )
            )
        }
        try await tx.friends.befriend(me.id, other, at: now)
        let key = "friend_accepted:\(me.id):\(me.localDate(at: now))"
        try await self.notify(other, type: .friendAccepted, key: key, about: me, edge: edge, in: tx, at: now)
    }

    private static func requireRoom(for user: User.ID, in tx: Transaction) async throws {
        guard try await tx.friends.count(of: user) < FriendLimits.maximumFriends else {
            throw DomainError.refused(
                Refusal(
                    .limitReached,
                    "You have \(FriendLimits.maximumFriends) friends, the most there may be; remove some first.",
                    facts: ["limit": .number(FriendLimits.maximumFriends)]
                )
            )
        }
    }

    /// Raises `type` for `recipient` about the caller, when the policy lets the caller reach them and the
    /// profile's catalog has the type; decided once the transaction commits.
    private func notify(
        _ recipient: User.ID,
        type: RaisedType,
        key: String,
        about me: User,
        edge: FriendEdge,
        in tx: Transaction,
        at now: Date
    ) async throws {
        guard FriendAccess.decide(.notify, isSelf: false, edge) == .allowed else { return }
        let candidate = NotificationCandidate(
            type: type,
            dedupeKey: key,
            data: ["name": me.profile.displayName],
            actor: me.id
        )
        if let job = try Notifications.raising(
            candidate,
            for: recipient,
            catalog: self.profile.notifications,
            ids: self.ids,
            at: now
        ) {
            try await tx.enqueue([job], at: now)
        }
    }
}
