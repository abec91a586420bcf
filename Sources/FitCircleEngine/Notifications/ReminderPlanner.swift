public import FitCircleCore
public import FitCircleJobs
public import FitCircleStore
import Foundation

/// Scheduled notifications, planned a day at a time where users live: at 00:10 local a zone job computes,
/// for each of its users and each scheduled type with a trigger, the instant it should go out today (the
/// catalog's time; for personalised types the user's reminder time, or 45 minutes before their habitual
/// time once it is known) and queues one trigger job per user at that instant. The trigger looks at what
/// is true then (has the user checked in?) and hands the candidate to the policy. Dedupe keys make each
/// step once per user, type and local date.
public struct ReminderPlanner: Sendable {
    public static let planDay = "notifications.plan_day"
    public static let trigger = "notification.trigger"
    public static let schedules = [ZoneSchedule(kind: Self.planDay, hour: 0, minute: 10)]
    static let pageSize = 500

    let store: Store
    let profile: RuleProfile
    let notifications: Notifications
    let streaks: Streaks
    let clock: WallClock

    /// The scheduled types whose trigger exists so far.
    static let triggers: Set<String> = ["daily_checkin_reminder", "streak_at_risk"]

    public var handlers: [String: JobHandler] {
        [
            Self.planDay: { job in try await self.plan(job) },
            Self.trigger: { job in try await self.fire(job) },
        ]
    }

    private struct Planned: Codable {
        var user: String
        var type: String
        var date: LocalDate
    }

    /// Queues today's trigger of every scheduled type for one page of the zone's users, then the next page.
    private func plan(_ job: JobRecord) async throws {
        let batch = try ZoneBatch(job)
        guard let zone = TimeZone(identifier: batch.zone) else { return }
        let types = self.profile.notifications.types.filter { $0.at != nil && Self.triggers.contains($0.type) }
        let now = self.clock.now()
        try await self.store.transaction { tx in
            let users = try await tx.users(inTimeZone: batch.zone, after: batch.after.map(User.ID.init), limit: Self.pageSize)
            var jobs: [JobRecord] = []
            for user in users {
                let preferences = try await tx.notificationPreferences(of: user) ?? .defaults
                for type in types {
                    let time = try await self.time(of: type, for: user, preferences: preferences, in: tx)
                    guard let instant = batch.date.instant(at: time, in: zone) else { continue }
                    let planned = Planned(user: user.rawValue, type: type.type, date: batch.date)
                    jobs.append(
                        JobRecord(
                            id: UUID().uuidString.lowercased(), kind: Self.trigger,
                            payload: String(decoding: try JSONEncoder().encode(planned), as: UTF8.self),
                            dedupeKey: "trigger:\(type.type):\(user):\(batch.date.iso)", runAt: instant, maxAttempts: 5))
                }
            }
            if users.count == Self.pageSize, let last = users.last {
                jobs.append(try ZoneBatch(zone: batch.zone, date: batch.date, after: last.rawValue).job(job.kind, runAt: now))
            }
            try await tx.enqueue(jobs, at: now)
        }
    }

    /// The local time `type` goes out for this user today.
    private func time(of type: NotificationType, for user: User.ID, preferences: NotificationPreferences, in tx: Transaction) async throws -> LocalTime {
        guard type.personalised else { return type.at! }
        let habit = try await tx.recentInstants(of: user, kind: .checkIn, limit: SendTime.maximumSamples).compactMap { instant -> LocalTime? in
            guard let zone = TimeZone(identifier: instant.timeZone) else { return nil }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = calendar.dateComponents([.hour, .minute], from: instant.occurredAt)
            return LocalTime(hour: parts.hour!, minute: parts.minute!)
        }
        return SendTime.plan(fallback: preferences.reminderTime, habitual: SendTime.habitual(habit), preferences: preferences)
    }

    /// The trigger at its time: what is true now decides whether there is anything to say.
    private func fire(_ job: JobRecord) async throws {
        let planned = try JSONDecoder().decode(Planned.self, from: Data(job.payload.utf8))
        let user = User.ID(planned.user)
        let key = "\(planned.type):\(planned.date.iso)"
        switch planned.type {
        case "streak_at_risk":
            // Spec 000: the period before this one did not count (missed, or saved by a freeze), the streak is
            // still alive and this period does not count yet.
            let summary = try await self.streaks.current(of: user)
            guard let last = summary.recent.first, last.status == .missed || last.status == .frozen,
                summary.standing.current > 0, !summary.standing.met
            else { return }
            _ = try await self.notifications.notify(
                NotificationCandidate(type: planned.type, dedupeKey: key, data: ["streak": "\(summary.standing.current)"]), to: user)
        default:
            let (checkedIn, streak) = try await self.store.read { tx in
                (try await tx.days(of: user, from: planned.date, to: planned.date).first?.checkedIn ?? false,
                 try await tx.streak(of: user)?.state.count ?? 0)
            }
            _ = try await self.notifications.notify(
                NotificationCandidate(type: planned.type, dedupeKey: key, data: ["streak": "\(streak)"], goalMet: checkedIn), to: user)
        }
    }
}
