public import FitCircleCore
public import FitCircleStore
import Foundation

/// FitCircles and who is in them (spec 000, Feature 3): create, edit, archive, invite, join by invitation
/// or code, leave, remove, roles. Membership is kept over time (each stint with its join and leave instants);
/// only members claim days, so a period's board holds those who were members when they claimed. A private
/// circle is invisible to those who are neither members nor invited: they get 404, not 403.
public final class Circles: Sendable {
    let store: Store
    let rules: Rules
    let ids: IDGenerator
    let clock: WallClock
    public let events: BoardEvents
    /// A member's weight goals follow the weight-loss circles they are in.
    let goals: Goals
    let analytics: EventRecorder

    public init(
        store: Store,
        rules: Rules,
        ids: IDGenerator,
        clock: WallClock,
        events: BoardEvents,
        goals: Goals,
        analytics: EventRecorder
    ) {
        self.store = store
        self.rules = rules
        self.ids = ids
        self.clock = clock
        self.events = events
        self.goals = goals
        self.analytics = analytics
    }

    var keeper: BoardKeeper { BoardKeeper(indexes: self.events.indexes, weekStart: self.rules.base.week.startsOn) }

    /// A circle as one user sees it.
    public struct View: Equatable, Sendable {
        public var circle: FitCircle
        /// The viewer's role; nil when they are not a member.
        public var role: CircleRole?
        public var memberCount: Int
    }

    // MARK: Circles

    /// Creates a circle owned by `user`, its first member; the zone defaults to the creator's.
    public func create(_ input: CircleInput, weights: WeightGoalInput, by user: User.ID) async throws -> View {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            guard let creator = try await tx.users.locked(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            let valid = try input.validated(defaultTimeZone: creator.profile.timeZone, now: now)
            let goal = try weights.validated(
                for: valid.metric,
                profileWeightKg: creator.profile.weightKg,
                limits: self.rules.base.limits.weightKg
            )
            let circle = FitCircle(
                id: self.ids.make(),
                name: valid.name,
                description: valid.description,
                metric: valid.metric,
                startDate: valid.startDate,
                endDate: valid.endDate,
                timeZone: valid.timeZone,
                privacy: valid.privacy,
                memberLimit: valid.memberLimit,
                stepGoal: valid.stepGoal,
                ownerID: user,
                joinCode: Self.joinCode(),
                createdAt: now
            )
            try await tx.circles.insert(circle)
            try await tx.circles.insert(
                CircleMembership(
                    circleID: circle.id,
                    userID: user,
                    role: .owner,
                    joinedAt: now,
                    startingWeightKg: goal.starting,
                    targetWeightKg: goal.target
                )
            )
            if circle.setsGoals { try await self.goals.followCircles(of: user, in: tx) }
            return View(circle: circle, role: .owner, memberCount: 1)
        }
    }

    /// The circle, for a member, anyone when it is public, or someone invited to it.
    public func circle(_ id: FitCircle.ID, for user: User.ID) async throws -> View {
        try await self.store.read { tx in
            let found = try await self.allowed(.read, id, by: user, in: tx)
            return View(circle: found.circle, role: found.membership?.role, memberCount: found.memberCount)
        }
    }

    /// The circles the user is in now, newest first.
    public func circles(of user: User.ID, after last: InstantKey?, limit: Int) async throws -> (
        items: [View], next: InstantKey?
    ) {
        try PageLimit.check(limit, within: Self.circlePage)
        return try await self.store.read { tx in
            let page = PageOfRows(
                rows: try await tx.circles.list(of: user, after: last, limit: limit + 1),
                limit: limit
            )
            var views: [View] = []
            for (circle, role) in page.items {
                views.append(
                    View(circle: circle, role: role, memberCount: try await tx.circles.memberCount(of: circle.id))
                )
            }
            return (views, page.next { InstantKey(at: $0.circle.createdAt, id: $0.circle.id.rawValue) })
        }
    }

    /// The sizes a page of one's circles may have, and its size when none is asked.
    public static let circlePage = 1...200
    public static let circlePageSize = 100

    /// Edits the circle (owners and admins). Once the competition has begun its metric, start and zone stay.
    public func update(_ id: FitCircle.ID, with input: CircleInput, by user: User.ID) async throws -> View {
        try await self.edit(id, by: user) { _ in input }
    }

    /// Changes the fields `change` gives and keeps the others, under the same rules as `update`.
    public func change(_ id: FitCircle.ID, with change: CircleChange, by user: User.ID) async throws -> View {
        try await self.edit(id, by: user) { stored in change.input(onto: stored) }
    }

    private func edit(
        _ id: FitCircle.ID,
        by user: User.ID,
        _ form: @escaping @Sendable (FitCircle) -> CircleInput
    ) async throws -> View {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            let found = try await self.allowed(.edit, id, by: user, in: tx, locked: true)
            let stored = found.circle
            let input = form(stored)
            let valid = try input.validated(defaultTimeZone: stored.timeZone, now: now)
            let circle = try stored.edited(
                with: valid,
                startGiven: input.startDate != nil,
                today: stored.today(at: now),
                members: found.memberCount
            )
            try await tx.circles.update(circle, at: now)
            return View(circle: circle, role: found.membership?.role, memberCount: found.memberCount)
        }
    }

    /// Archives the circle (its owner): it stays readable, and nobody joins, submits or is invited any more.
    public func archive(_ id: FitCircle.ID, by user: User.ID) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            var circle = try await self.allowed(.archive, id, by: user, in: tx, locked: true).circle
            circle.archivedAt = now
            try await tx.circles.update(circle, at: now)
        }
    }
}
