public import FitCircleCore
public import FitCircleJobs
public import FitCircleStore
import Foundation

/// Scheduled notifications, planned a day at a time where users live. At 00:10 local a zone job takes its
/// users a page at a time and, for each type scheduled that day, works out when it goes out for each user
/// (the catalog's time or the user's reminder time; for personalised types 45 minutes before their habitual
/// time once it is known; never in quiet hours). Users whose times agree share one trigger job at that
/// instant. The trigger reads what is true then (`ScheduledTriggers`) and hands each candidate to the policy.
///
/// Planning is set-based so it keeps up with a zone of many users: one statement reads the page's users
/// with when to reach them (their reminder time, quiet hours and habitual time are on their row) and one
/// inserts a handful of trigger jobs. Dedupe keys make every step once per zone, date, type and page, and
/// `notify` makes each user's notification once per type and date, whatever runs twice.
public struct ReminderPlanner: Sendable {
    public static let planDay = "notifications.plan_day"
    public static let trigger = "notification.trigger"
    public static let schedules = [ZoneSchedule(kind: Self.planDay, hour: 0, minute: 10)]
    static let pageSize = 1_000

    let store: Store
    let profile: RuleProfile
    let notifications: Notifications
    let triggers: ScheduledTriggers
    let clock: WallClock

    public var handlers: [String: JobHandler] {
        [
            Self.planDay: { job in try await self.plan(job) },
            Self.trigger: { job in try await self.fire(job) },
        ]
    }

    /// The users of one zone who hear about one type at one instant.
    private struct Trigger: Codable {
        var type: String
        var date: LocalDate
        var users: [String]
    }

    private func plan(_ job: JobRecord) async throws {
        let batch = try ZoneBatch(job)
        if let next = try await self.planPage(zone: batch.zone, date: batch.date, after: batch.after.map(User.ID.init)) {
            try await self.store.transaction { tx in
                _ = try await tx.enqueue([try ZoneBatch(zone: batch.zone, date: batch.date, after: next.rawValue).job(job.kind, runAt: self.clock.now())], at: self.clock.now())
            }
        }
    }

    /// Queues the triggers of one page of the zone's users (those after `after`) for `date`; answers the
    /// last user of the page when there may be more.
    @discardableResult
    public func planPage(zone identifier: String, date: LocalDate, after: User.ID?) async throws -> User.ID? {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        let types = self.types(on: date)
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            let subjects = try await tx.reminderSubjects(inTimeZone: identifier, after: after, limit: Self.pageSize)
            guard let last = subjects.last?.user, !types.isEmpty else { return nil }
            var jobs: [JobRecord] = []
            for type in types {
                var atTime: [LocalTime: [String]] = [:]
                for subject in subjects {
                    let time = Self.time(of: type, for: subject)
                    atTime[time, default: []].append(subject.user.rawValue)
                }
                for (time, users) in atTime {
                    guard let instant = date.instant(at: time, in: zone) else { continue }
                    let trigger = Trigger(type: type.type, date: date, users: users)
                    jobs.append(
                        JobRecord(
                            id: UUID().uuidString.lowercased(), kind: Self.trigger,
                            payload: String(decoding: try JSONEncoder().encode(trigger), as: UTF8.self),
                            dedupeKey: "trigger:\(type.type):\(identifier):\(date.iso):\(time):\(after?.rawValue ?? "")", runAt: instant, maxAttempts: 5))
                }
            }
            try await tx.enqueue(jobs, at: now)
            return subjects.count == Self.pageSize ? last : nil
        }
    }

    /// The types planned for `date`: those scheduled that day whose trigger exists.
    public func types(on date: LocalDate) -> [NotificationType] {
        self.profile.notifications.types.filter { $0.isScheduled(on: date) && ScheduledTriggers.types.contains($0.type) }
    }

    /// The local time a type goes out for this user: its own, or their reminder time; for a personalised
    /// type, before their habitual time once known.
    static func time(of type: NotificationType, for subject: ReminderSubject) -> LocalTime {
        let scheduled = type.followsReminderTime ? subject.reminderTime : type.at!
        guard type.personalised else { return scheduled }
        var preferences = NotificationPreferences.defaults
        preferences.reminderTime = subject.reminderTime
        preferences.quietStart = subject.quietStart
        preferences.quietEnd = subject.quietEnd
        return SendTime.plan(fallback: scheduled, habitual: subject.habit, preferences: preferences)
    }

    /// The trigger at its time, for each of its users: what is true now decides whether there is anything to say.
    private func fire(_ job: JobRecord) async throws {
        let trigger = try JSONDecoder().decode(Trigger.self, from: Data(job.payload.utf8))
        for user in trigger.users.map(User.ID.init) {
            do {
                guard let candidate = try await self.triggers.candidate(trigger.type, for: user, on: trigger.date) else { continue }
                _ = try await self.notifications.notify(candidate, to: user)
            } catch DomainError.notFound {
                continue  // the account is gone
            }
        }
    }
}
