import FitCircleCore
import FitCircleStore
import Foundation

/// Notifications an activity raises as it is recorded, queued in the ingest transaction (decided once it
/// commits). So far spec 001's NOTIF-02: "almost there" when today's push-ups come within 5 of the daily
/// goal (once a day; dropped by the policy once the goal is met).
struct ActivityNudges: Sendable {
    let profile: RuleProfile
    let ids: IDGenerator

    /// How close to the goal counts as almost there.
    static let within = 5

    func raise(
        after days: [(user: User.ID, day: DailyTracking)],
        of users: [User.ID: User],
        in tx: Transaction,
        now: Date
    ) async throws {
        guard self.profile.notifications[RaisedType.almostThere] != nil else { return }
        var jobs: [JobRecord] = []
        for (user, day) in days where day.pushupReps > 0 && users[user].map({ $0.localDate(at: now) }) == day.date {
            let goal = (try await tx.training.settings(of: user) ?? .defaults).dailyGoal
            let left = goal - day.pushupReps
            guard (1...Self.within).contains(left) else { continue }
            let candidate = NotificationCandidate(
                type: RaisedType.almostThere,
                dedupeKey: "\(RaisedType.almostThere.rawValue):\(day.date.iso)",
                data: ["left": "\(left)"]
            )
            if let job = try Notifications.raising(
                candidate,
                for: user,
                catalog: self.profile.notifications,
                ids: self.ids,
                at: now
            ) {
                jobs.append(job)
            }
        }
        try await tx.enqueue(jobs, at: now)
    }
}

extension ActivityNudges: IngestReaction {
    func react(to ingested: inout Ingested, in tx: Transaction) async throws {
        try await self.raise(after: ingested.days, of: ingested.users, in: tx, now: ingested.now)
    }
}
