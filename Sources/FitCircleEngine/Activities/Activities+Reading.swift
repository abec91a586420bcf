public import FitCircleCore
public import FitCircleStore
public import Foundation

extension Activities {
    /// Records a health-data sync of a day's totals and answers the day as it is now.
    public func syncDay(_ input: ActivityInput, for user: User.ID, date: LocalDate?) async throws -> DailyTracking {
        var input = input
        input.date = date
        let event = try await self.record(input, for: user).event
        guard let date = event?.localDate else { throw StoreError.conflict }
        return try await self.store.read { tx in
            try await tx.activities.days(of: user, from: date, to: date).first ?? DailyTracking(date: date)
        }
    }

    /// One of the user's live events.
    public func activity(_ id: ActivityEvent.ID, of user: User.ID) async throws -> ActivityEvent {
        try await self.store.read { tx in
            guard let stored = try await tx.activities.activity(of: user, id: id), stored.deletedAt == nil else {
                throw DomainError.notFound(resource: "activity", id: id.rawValue)
            }
            return stored.event
        }
    }

    /// A page of the user's events, newest first.
    public func activities(of user: User.ID, query: ActivityQuery) async throws -> [ActivityEvent] {
        try await self.store.read { tx in try await tx.activities.list(of: user, query: query) }
    }

    /// The sizes a page of changes may have, and its size when none is asked.
    public static let changesPage = 1...500
    public static let changesPageSize = 200

    /// What changed in the user's activities, oldest change first (`ActivityChange`): since an earlier
    /// sync's `since` with deleted ones as tombstones, or, on a first sync, the live ones; a page at a time
    /// (`after`: the page before's last; `next` is this page's last when there are more).
    /// - Returns: the page, its `next`, and the `since` of the next sync once the last page is read.
    public func changes(
        of user: User.ID,
        since: Date?,
        after: InstantKey?,
        tombstones: Bool,
        limit: Int
    ) async throws -> (items: [ActivityChange], next: InstantKey?, nextSince: Date) {
        try PageLimit.check(limit, within: Self.changesPage)
        let now = self.clock.now()
        let page = PageOfRows(
            rows: try await self.store.read { tx in
                try await tx.activities.changes(
                    of: user,
                    since: since,
                    after: after,
                    tombstones: tombstones,
                    limit: limit + 1
                )
            },
            limit: limit
        )
        return (Array(page.items), page.next(\.key), ActivitySync.since(afterReadingAt: now))
    }

    /// Changes who else sees one of the user's live events. What it counts for its owner stays; a workout
    /// joins or leaves the boards of their challenges (`ActivityAccess.countedOnSharedBoards`).
    public func setVisibility(_ visibility: ActivityVisibility, of id: ActivityEvent.ID, for user: User.ID) async throws
        -> ActivityEvent
    {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            guard var stored = try await tx.activities.activity(of: user, id: id), stored.deletedAt == nil else {
                throw DomainError.notFound(resource: "activity", id: id.rawValue)
            }
            try await tx.feed.setVisibility(visibility, of: id, owner: user, at: now)
            if stored.event.visibility != visibility, case .workout = stored.event.payload {
                try await self.ingest.challenges.restate([user], in: tx, now: now)
            }
            stored.event.visibility = visibility
            return stored.event
        }
    }

    /// Deletes an event; its day (and streak) is recomputed without it in the same transaction.
    public func delete(_ id: ActivityEvent.ID, of user: User.ID) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            guard let account = try await tx.users.locked(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            guard let stored = try await tx.activities.activity(of: user, id: id), stored.deletedAt == nil else {
                throw DomainError.notFound(resource: "activity", id: id.rawValue)
            }
            try await tx.activities.delete(id, of: user, at: now)
            try await self.recompute(after: stored.event, of: account, in: tx, now: now)
        }
    }

    /// The user's stored days from `from` to `to`; by default the last 7 days in the user's zone.
    public func days(of user: User, from: LocalDate?, to: LocalDate?) async throws -> [DailyTracking] {
        let (first, last) = try LocalDate.queried(from: from, to: to, today: user.localDate(at: self.clock.now()))
        return try await self.store.read { tx in try await tx.activities.days(of: user.id, from: first, to: last) }
    }

    /// Lifetime totals and personal records (spec 004, 5.5).
    public func statistics(of user: User.ID) async throws -> (totals: ActivityTotals, records: [PersonalRecords]) {
        try await self.store.read { tx in
            (try await tx.stats.totals(of: user), try await tx.stats.personalRecords(of: user))
        }
    }
}
