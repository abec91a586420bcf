public import FitCircleCore
public import FitCircleStore
import Foundation

/// "New this week" (spec 003 §1): an app's backend publishes content per ISO week, and each user is told
/// which of the week's content they have not seen yet, the week being theirs — Monday 00:00 in their own
/// zone, so a user in Tokyo sees next week's horoscope while one in Los Angeles is still on Sunday.
public struct WeeklyContents: Sendable {
    let store: Store
    let clock: WallClock

    public init(store: Store, clock: WallClock) {
        self.store = store
        self.clock = clock
    }

    /// Publishes `key` for `week` (operators, or a backend's service key with the `content` scope).
    /// Publishing it again answers what was published.
    public func publish(_ key: String, week: String, by caller: Caller) async throws -> WeeklyContent {
        let (key, week) = (try WeeklyContent.validatedKey(key), try WeeklyContent.validatedWeek(week))
        return try await self.store.transaction { tx in
            try await Operators.require(caller, in: tx, to: "publish weekly content", scope: .content)
            let published = WeeklyContent(key: key, week: week, publishedAt: self.clock.now())
            try await tx.weeklyContent.publish(published)
            // A piece published again keeps its first publication: the stored one is the answer.
            return try await tx.weeklyContent.weeklyContent(key, week: week) ?? published
        }
    }

    /// What is new to `user` this week: the user's current ISO week and its unseen content.
    public struct New: Equatable, Sendable {
        public var week: IsoWeek
        public var items: [WeeklyContent]
    }

    public static let listLimit = 500

    public func new(for user: User.ID) async throws -> New {
        try await self.store.read { tx in
            let week = try await self.week(of: user, in: tx)
            return New(
                week: week,
                items: try await tx.weeklyContent.unseenContent(of: week, by: user, limit: Self.listLimit)
            )
        }
    }

    /// Marks this week's `key` seen by `user` (again: nothing changes); 404 when the week has no such content.
    public func markSeen(_ key: String, by user: User.ID) async throws -> WeeklyContent {
        let key = try WeeklyContent.validatedKey(key)
        return try await self.store.transaction { tx in
            let week = try await self.week(of: user, in: tx)
            guard let content = try await tx.weeklyContent.weeklyContent(key, week: week) else {
                throw DomainError.notFound(resource: "content of \(week)", id: key)
            }
            try await tx.weeklyContent.markSeen(key, week: week, by: user, at: self.clock.now())
            return content
        }
    }

    private func week(of user: User.ID, in tx: Transaction) async throws -> IsoWeek {
        guard let account = try await tx.users.find(user) else {
            throw DomainError.notFound(resource: "user", id: user.rawValue)
        }
        return IsoWeek(containing: account.localDate(at: self.clock.now()))
    }
}
