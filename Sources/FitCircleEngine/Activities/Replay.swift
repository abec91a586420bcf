public import FitCircleCore
public import FitCircleStore
import Foundation

/// Rebuilds every derived table from the events and reports where the stored state differs. Nothing is
/// expected to differ: the tests use it as an oracle after every sequence of API calls. Days and habitual
/// times are rebuilt from their events; the points ledger is walked again line by line (`RewardAudit`).
public struct Replay: Sendable {
    let store: Store
    let profile: RuleProfile
    let clock: WallClock
    /// Told how far each part has gone ("daily tracking: 300 of 1,200 people"), for a long audit.
    let progress: @Sendable (String) -> Void

    public init(
        store: Store,
        profile: RuleProfile,
        clock: WallClock,
        progress: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.store = store
        self.profile = profile
        self.clock = clock
        self.progress = progress
    }

    /// Tells the progress of `done` of `total` people every hundred and at the end.
    func tell(_ part: String, _ done: Int, of total: Int) {
        if done % 100 == 0 || done == total { self.progress("\(part): \(done) of \(total) people") }
    }

    /// A day whose stored state is not what its events make.
    public struct Difference: Equatable, Sendable, CustomStringConvertible {
        public var user: User.ID
        public var stored: DailyTracking?
        public var replayed: DailyTracking?

        public var description: String {
            "user \(self.user) on \((self.stored ?? self.replayed)?.date.iso ?? "?"): stored \(self.stored.map { "\($0)" } ?? "nothing"), "
                + "events make \(self.replayed.map { "\($0)" } ?? "nothing")"
        }
    }

    /// Something of a user's (points, level, counters, badges, habitual time) that is not what the ledger and
    /// the events make.
    public struct UserDifference: Equatable, Sendable, CustomStringConvertible {
        public var user: User.ID
        public var problem: String

        public var description: String { "user \(self.user): \(self.problem)" }
    }

    /// Walks every user's points ledger again; the ledger is append-only, so differences are reported, not fixed.
    public func rewardDifferences() async throws -> [UserDifference] {
        let audit = RewardAudit(profile: self.profile)
        let users = try await self.store.read { try await $0.activities.usersWithActivities() }
        var differences: [UserDifference] = []
        for (index, user) in users.enumerated() {
            differences += try await self.store.read { tx in try await audit.differences(of: user, in: tx) }.map {
                UserDifference(user: user, problem: $0)
            }
            self.tell("points ledger", index + 1, of: users.count)
        }
        return differences
    }

    /// Audits every challenge's escrow: what it holds equals what its participants staked and were not
    /// paid back, and the ledger's stake, refund and payout lines of it sum to minus what it holds — XP
    /// moved between people and escrow is neither made nor lost.
    public func escrowDifferences() async throws -> [String] {
        try await self.store.read { tx in
            let books = try await tx.challenges.escrowBooks()
            let movements = Dictionary(grouping: try await tx.challenges.escrowMovements(), by: \.challenge).mapValues {
                $0.reduce(0) { $0 + $1.amount }
            }
            var problems: [String] = []
            for book in books {
                if book.escrow != book.held {
                    problems.append(
                        "challenge \(book.id): escrow holds \(book.escrow) XP, its participants' stakes not paid back make \(book.held)"
                    )
                }
                let net = movements[book.id] ?? 0
                if book.escrow + net != 0 {
                    problems.append(
                        "challenge \(book.id): escrow holds \(book.escrow) XP, the ledger moved \(-net) XP into it"
                    )
                }
            }
            for (challenge, net) in movements where !books.contains(where: { $0.id == challenge }) && net != 0 {
                problems.append("ledger lines move \(-net) XP into challenge \(challenge), which does not exist")
            }
            return problems
        }
    }

    /// The users whose stored habitual time is not what their check-ins and workouts make; with `fix`, the
    /// replayed times are stored.
    public func sendHabitDifferences(fix: Bool = false) async throws -> [UserDifference] {
        try await self.store.transaction { tx in
            let stored = try await tx.reminders.sendHabits()
            let users = Array(Set(try await tx.activities.usersWithActivities()).union(stored.keys)).sorted()
            let differing = try await SendHabits.replayed(for: users, in: tx).filter { user, replayed in
                stored[user] != replayed
            }
            if fix { try await tx.reminders.saveSendHabits(differing) }
            return differing.map { user, replayed in
                UserDifference(
                    user: user,
                    problem:
                        "habitual time stored \(stored[user]?.description ?? "none"), events make \(replayed?.description ?? "none")"
                )
            }.sorted { $0.user < $1.user }
        }
    }

    /// Compares every stored day with the one its events make; with `fix`, stores the replayed days.
    public func run(fix: Bool = false) async throws -> [Difference] {
        let users = try await self.store.transaction { try await $0.activities.usersWithActivities() }
        var differences: [Difference] = []
        for (index, user) in users.enumerated() {
            defer { self.tell("daily tracking", index + 1, of: users.count) }
            differences += try await self.store.transaction { tx in
                if fix { try await tx.lockUser(user) }
                var found: [Difference] = []
                for date in try await tx.activities.dates(of: user) {
                    let stored = try await tx.activities.days(of: user, from: date, to: date).first
                    let day = UserDay(user: user, date: date)
                    let events =
                        try await tx.activities.activitiesIncludingDeletedExist(of: user, on: date)
                        ? DailyTracking.summarize(
                            try await tx.activities.list(on: [day])[day] ?? [],
                            on: date,
                            manualSteps: self.profile.activities.manualSteps
                        )
                        : nil
                    guard stored != events else { continue }
                    found.append(Difference(user: user, stored: stored, replayed: events))
                    if fix {
                        if let events {
                            try await tx.activities.save([(user, events)], at: self.clock.now())
                        } else {
                            try await tx.activities.deleteDay(date, of: user)
                        }
                    }
                }
                return found
            }
        }
        return differences
    }
}
