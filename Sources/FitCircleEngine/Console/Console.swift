public import FitCircleCore
public import FitCircleStore
public import Foundation

/// What the operator console reads and does (`/admin`): accounts found and their files, the job queue with
/// retry, the delivery log, circles and challenges, the active rule profile. Every use case lets only
/// operators on (`Operators.require`, which asks `OperatorAccess`); a person's file is read through the same
/// use cases as the person's own screens.
public struct Console: Sendable {
    let store: Store
    let profile: RuleProfile
    let streaks: Streaks
    let rewards: Rewards
    let notifications: Notifications
    let deliveries: Deliveries
    let clock: WallClock

    public static let maximumAccounts = 20
    public static let limits = 1...200
    /// How far back a file's streak ledger goes.
    public static let ledgerDays = 60

    /// A person as the console shows them: the account, the streak and its ledger, the latest points and
    /// notifications (each with its delivery attempts).
    public struct AccountFile: Sendable {
        public var account: User
        public var streak: Streaks.Summary
        public var streakLedger: [Streak.Entry]
        public var points: [PointsLine]
        public var notifications: [NotificationRecord]
        public var attempts: [NotificationRecord.ID: [DeliveryAttemptRecord]]
    }

    /// The account with id `raw`, else those `query` finds (an exact address, or the start of a name).
    public func accounts(id raw: String, query: NameSearch.Query, by caller: Caller) async throws -> [User] {
        try await self.store.read { tx in
            try await Operators.require(caller, in: tx, to: "look people up", scope: .console)
            if let account = try await tx.users.find(User.ID(raw)) { return [account] }
            switch query {
            case .email(let address): return try await tx.users.all(withEmail: address)
            case .name(let prefix): return try await tx.console.accounts(matching: prefix, limit: Self.maximumAccounts)
            }
        }
    }

    public func file(of id: User.ID, by caller: Caller) async throws -> AccountFile {
        let account = try await self.store.read { tx in
            try await Operators.require(caller, in: tx, to: "read a person's file", scope: .console)
            guard let account = try await tx.users.find(id) else {
                throw DomainError.notFound(resource: "user", id: id.rawValue)
            }
            return account
        }
        let today = account.localDate(at: self.clock.now())
        let notifications = try await self.notifications.history(of: id, type: nil, channel: nil, after: nil, limit: 30)
            .items
        return AccountFile(
            account: account,
            streak: try await self.streaks.current(of: id),
            streakLedger: try await self.streaks.history(
                of: id,
                from: today.adding(days: 1 - Self.ledgerDays),
                to: today
            ),
            points: try await self.rewards.ledger(of: id, cursor: nil, limit: 50).lines,
            notifications: notifications,
            attempts: try await self.deliveries.attempts(of: notifications.map(\.id))
        )
    }

    /// A job and where it stands when read (nil: done).
    public struct QueuedJob: Sendable {
        public var record: JobRecord
        public var state: JobState?
    }

    /// How many jobs are in each state, and up to `limit` of `state`.
    public func jobs(in state: JobState, after last: String?, limit: Int, by caller: Caller) async throws -> (
        counts: [JobState: Int], jobs: [QueuedJob], next: String?
    ) {
        guard Self.limits.contains(limit) else {
            throw ValidationError(field: "limit", reason: "must be between 1 and 200")
        }
        let now = self.clock.now()
        return try await self.store.read { tx in
            try await Operators.require(caller, in: tx, to: "read the job queue", scope: .console)
            let jobs = try await tx.console.jobs(in: state, at: now, after: last, limit: limit)
            return (
                try await tx.console.jobCounts(at: now),
                jobs.map { QueuedJob(record: $0, state: JobState.of($0, at: now)) },
                jobs.count == limit ? jobs.last?.id : nil
            )
        }
    }

    /// A failed job due now with its attempts counted afresh: the worker that claims it next runs it.
    public func retry(job id: String, by caller: Caller) async throws -> QueuedJob {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            try await Operators.require(caller, in: tx, to: "retry a job", scope: .console)
            guard try await tx.console.job(id) != nil else { throw DomainError.notFound(resource: "job", id: id) }
            guard try await tx.console.retry(id, at: now), let job = try await tx.console.job(id) else {
                throw DomainError.refused(Refusal(.wrongState, "Only a failed job can be retried."))
            }
            return QueuedJob(record: job, state: JobState.of(job, at: now))
        }
    }

    /// The delivery log, latest first, a page at a time (`cursor`: the `nextCursor` of the page before).
    public func deliveries(
        channel: NotificationChannel?,
        outcome: String?,
        cursor: String?,
        limit: Int,
        by caller: Caller
    ) async throws -> (entries: [DeliveryLogEntry], nextCursor: String?) {
        guard Self.limits.contains(limit) else {
            throw ValidationError(field: "limit", reason: "must be between 1 and 200")
        }
        let entries = try await self.store.read { tx in
            try await Operators.require(caller, in: tx, to: "read the delivery log", scope: .console)
            return try await tx.console.deliveries(channel: channel, outcome: outcome, before: cursor, limit: limit)
        }
        return (entries, entries.count == limit ? entries.last?.attempt.id : nil)
    }

    /// Every circle, newest first, a page at a time (`cursor`: the `nextCursor` of the page before).
    public func circles(cursor: String?, limit: Int, by caller: Caller) async throws -> (
        items: [(circle: FitCircle, members: Int)], nextCursor: String?
    ) {
        guard Self.limits.contains(limit) else {
            throw ValidationError(field: "limit", reason: "must be between 1 and 200")
        }
        let items = try await self.store.read { tx in
            try await Operators.require(caller, in: tx, to: "list the circles", scope: .console)
            return try await tx.console.circles(before: cursor, limit: limit)
        }
        return (items, items.count == limit ? items.last?.circle.id.rawValue : nil)
    }

    /// Every challenge, newest first, with where it stands now.
    public func challenges(
        cursor: String?,
        limit: Int,
        by caller: Caller
    ) async throws -> (
        items: [(challenge: Challenge, status: Challenge.Status, participants: Int, escrow: Int)], nextCursor: String?
    ) {
        guard Self.limits.contains(limit) else {
            throw ValidationError(field: "limit", reason: "must be between 1 and 200")
        }
        let now = self.clock.now()
        let rows = try await self.store.read { tx in
            try await Operators.require(caller, in: tx, to: "list the challenges", scope: .console)
            return try await tx.console.challenges(before: cursor, limit: limit)
        }
        return (
            rows.map { ($0.challenge, $0.challenge.status(at: now), $0.participants, $0.escrow) },
            rows.count == limit ? rows.last?.challenge.id.rawValue : nil
        )
    }

    /// The profile every rule is read from (experiments' overlays aside).
    public func activeProfile(by caller: Caller) async throws -> RuleProfile {
        try await self.store.read { tx in
            try await Operators.require(caller, in: tx, to: "read the rule profile", scope: .console)
        }
        return self.profile
    }
}
