public import FitCircleCore
public import FitCircleStore
public import Foundation

/// Someone else's profile as the viewer may see it (spec 004, R5.5–R5.6, R6.8).
extension Profiles {
    public struct PersonView: Equatable, Sendable {
        public var userID: User.ID
        public var displayName: String
        public var showsPhoto: Bool
        /// The fields their audiences let the viewer see; nil otherwise.
        public var age: Int?
        public var weightKg: Double?
        public var heightCm: Double?
        public var edge: FriendEdge
        public var isSelf: Bool
        /// Their statistics over the workouts the viewer may see; nil when the viewer may see none (not a
        /// friend), rather than zeros that would say they never moved.
        public var statistics: Statistics?
    }

    public struct Statistics: Equatable, Sendable {
        public var workouts: Int
        public var distanceMeters: Double
        public var durationSeconds: Double
        public var records: [PersonalRecords]
        /// Their latest workouts, newest first.
        public var recentWorkouts: [ActivityEvent]
        /// Their last 30 days, oldest first, ending today where they are.
        public var lastThirtyDays: [DaySummary]
    }

    /// One day of a person's page: steps, push-ups of the workouts the viewer may see, and the weight when
    /// its audience takes the viewer in.
    public struct DaySummary: Equatable, Sendable {
        public var date: LocalDate
        public var steps: Int
        public var pushups: Int
        public var weightKg: Double?
    }

    /// How many recent workouts a profile shows.
    static let recentWorkoutsShown = 5

    /// The person as `viewer` sees them; 404 for an unknown id and for someone who blocked the viewer. The
    /// statistics count what their friends see (private workouts left out, for the person themself too: this
    /// is their profile as others see it; `GET /api/user/stats` has everything).
    public func person(_ id: User.ID, seenBy viewer: User.ID) async throws -> PersonView {
        try await self.store.read { tx in
            guard let view = try await self.view(of: id, seenBy: viewer, withStatistics: true, in: tx) else {
                throw DomainError.notFound(resource: "user", id: id.rawValue)
            }
            return view
        }
    }

    /// The most people one read of several gives.
    public static let peopleRead = 1...100

    /// Several people as `viewer` may see them, in the order asked, without their statistics (what a list
    /// shows: names, photos, the fields their audiences allow, the friendship): an app shows the people of
    /// a feed or a board in one call. Whoever the viewer may not see, or is gone, is left out; an id asked
    /// twice is given once.
    public func people(_ ids: [User.ID], seenBy viewer: User.ID) async throws -> [PersonView] {
        guard Self.peopleRead.contains(ids.count) else {
            throw ValidationError(field: "ids", reason: "must name 1 to \(Self.peopleRead.upperBound) people")
        }
        var seen: Set<User.ID> = []
        let unique = ids.filter { seen.insert($0).inserted }
        return try await self.store.read { tx in
            var views: [PersonView] = []
            for id in unique where id.isWellFormed {
                if let view = try await self.view(of: id, seenBy: viewer, withStatistics: false, in: tx) {
                    views.append(view)
                }
            }
            return views
        }
    }

    /// What `viewer` sees of the person (`FriendAccess` decides whether they see them at all;
    /// `ProfileAccess` and `ActivityAccess` what of them); nil when nothing.
    private func view(
        of id: User.ID,
        seenBy viewer: User.ID,
        withStatistics: Bool,
        in tx: Transaction
    ) async throws -> PersonView? {
        guard let person = try await tx.users.find(id), person.disabledAt == nil else { return nil }
        let isSelf = id == viewer
        let (edge, relationship) = try await Self.standing(of: viewer, to: id, in: tx)
        guard FriendAccess.decide(.find, isSelf: isSelf, edge) == .allowed else { return nil }
        let visible = ActivityAccess.visibleInFeed(isSelf: isSelf, isFriend: edge.areFriends)
        let profile = person.profile
        var statistics: Statistics?
        if withStatistics, !visible.isEmpty {
            let totals = try await tx.stats.workoutTotals(of: id, visible: visible)
            statistics = Statistics(
                workouts: totals.workouts,
                distanceMeters: totals.distanceMeters,
                durationSeconds: totals.durationSeconds,
                records: try await tx.stats.personalRecords(of: id, visible: visible),
                recentWorkouts: try await tx.stats.recentWorkouts(
                    of: id,
                    visible: visible,
                    limit: Self.recentWorkoutsShown
                ),
                lastThirtyDays: try await self.lastThirtyDays(
                    of: person,
                    visible: visible,
                    showsWeight: ProfileAccess.mayView(profile.visibility.weight, relationship),
                    in: tx
                )
            )
        }
        return PersonView(
            userID: id,
            displayName: profile.displayName,
            showsPhoto: ProfileAccess.mayView(photo: profile.photo, relationship),
            age: ProfileAccess.mayView(profile.visibility.age, relationship) ? profile.age : nil,
            weightKg: ProfileAccess.mayView(profile.visibility.weight, relationship) ? profile.weightKg : nil,
            heightCm: ProfileAccess.mayView(profile.visibility.height, relationship) ? profile.heightCm : nil,
            edge: edge,
            isSelf: isSelf,
            statistics: statistics
        )
    }

    /// The person's last 30 days: their step totals, the push-ups of workouts of `visible` (a private
    /// series counts on nobody's page but in their own totals), the weight only when `showsWeight`.
    private func lastThirtyDays(
        of person: User,
        visible: Set<ActivityVisibility>,
        showsWeight: Bool,
        in tx: Transaction
    ) async throws -> [DaySummary] {
        let today = person.localDate(at: self.clock.now())
        let first = today.adding(days: -29)
        let days = Dictionary(
            try await tx.activities.days(of: person.id, from: first, to: today).map { ($0.date, $0) },
            uniquingKeysWith: { _, last in last }
        )
        var pushups: [LocalDate: Int] = [:]
        let zone = TimeZone(identifier: person.profile.timeZone) ?? .gmt
        let from = first.start(in: zone)
        let to = today.adding(days: 1).start(in: zone)
        // The workouts started in the span, as a challenge reads them; only those the viewer may see count.
        for event in try await tx.challenges.workouts(of: person.id, from: from, to: to)
        where visible.contains(event.visibility) {
            if case .workout(let workout) = event.payload, workout.type == .pushups {
                pushups[event.localDate, default: 0] += workout.reps ?? 0
            }
        }
        return (0..<30).map { offset in
            let date = first.adding(days: offset)
            return DaySummary(
                date: date,
                steps: days[date]?.steps ?? 0,
                pushups: pushups[date] ?? 0,
                weightKg: showsWeight ? days[date]?.weightKg : nil
            )
        }
    }
}
