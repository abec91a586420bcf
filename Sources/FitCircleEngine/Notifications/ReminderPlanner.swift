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
/// A new account, a new zone, reminder time or quiet hours plan the rest of the user's today at once
/// (`planRestOfToday`), so the 20:00 reminder of a morning sign-up goes out (spec 000, Flow 1, day 1); the
/// user's plan stamp moves on, and triggers planned before it pass the user over.
///
/// Planning is set-based so it keeps up with a zone of many users: one statement reads the page's users
/// with when to reach them (their reminder time, quiet hours and habitual time are on their row) and one
/// inserts a handful of trigger jobs. Dedupe keys make every step once per zone, date, type and page, and
/// `notify` makes each user's notification once per type and date, whatever runs twice.
public struct ReminderPlanner: JobOwner {
    public static let planDay = "notifications.plan_day"
    public static let trigger = "notification.trigger"
    static let planTime = LocalTime.at(0, 10)
    public static let schedules = [
        ZoneSchedule(kind: Self.planDay, hour: Self.planTime.hour, minute: Self.planTime.minute)
    ]
    static let pageSize = 1_000

    let store: Store
    let rules: Rules
    let notifications: Notifications
    let triggers: ScheduledTriggers
    let clock: WallClock

    public func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        try jobs.register(Self.planDay) { job in try await self.plan(job) }
        try jobs.register(Self.trigger) { job in try await self.fire(job) }
        jobs.schedule(Self.schedules)
    }

    /// The users of one zone who hear about one type at one instant, as planned at `plannedAt` (a plan
    /// stamp) in `zone` (both absent in triggers queued before they existed).
    struct Trigger: Codable, Equatable {
        var type: String
        var date: LocalDate
        var users: [String]
        var plannedAt: Int64?
        var zone: String?

        /// The payload `fire` decodes, as `JSONEncoder` writes it, written directly: encoding a thousand ids
        /// per page and type through `JSONEncoder` took a sixth of planning (issue 44).
        var payload: String {
            var json = JSONWriter(capacity: 96 + self.users.count * 40)
            json.object { json in
                json.member("type", self.type)
                json.member("date", self.date.iso)
                json.key("users")
                json.array(self.users) { json, user in json.string(user) }
                json.member("plannedAt", self.plannedAt.map(Int.init))
                json.member("zone", self.zone)
            }
            return String(decoding: json.bytes, as: UTF8.self)
        }
    }

    /// Milliseconds since 1970: a plan stamp.
    static func stamp(_ instant: Date) -> Int64 { Int64((instant.timeIntervalSince1970 * 1_000).rounded(.down)) }

    private func plan(_ job: JobRecord) async throws {
        let batch = try ZoneBatch(job)
        if let next = try await self.planPage(zone: batch.zone, date: batch.date, after: batch.after.map(User.ID.init))
        {
            try await self.store.transaction { tx in
                _ = try await tx.enqueue(
                    [
                        try ZoneBatch(zone: batch.zone, date: batch.date, after: next.rawValue).job(
                            job.kind,
                            runAt: self.clock.now()
                        )
                    ],
                    at: self.clock.now()
                )
            }
        }
    }

    /// Queues the triggers of one page of the zone's users (those after `after`) for `date`; answers the
    /// last user of the page when there may be more.
    @discardableResult
    public func planPage(zone identifier: String, date: LocalDate, after: User.ID?) async throws -> User.ID? {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            let subjects = try await tx.reminders.subjects(inTimeZone: identifier, after: after, limit: Self.pageSize)
            guard let last = subjects.last?.user else { return nil }
            // Users share a trigger when their type goes out at the same time (a variant may move it).
            struct Slot: Hashable { var type: String, time: LocalTime }
            var slots: [Slot: [String]] = [:]
            // The day's types, once per profile the page's users are under (by their variants: without a
            // running experiment, one for the page).
            var typesByVariants: [[String: String]: [NotificationType]] = [:]
            for subject in subjects {
                // Exposure is recorded when a notification is decided under the variant, not here.
                let personal = try await self.rules.personal(subject.user, on: date, in: tx, at: now, exposing: false)
                let types =
                    typesByVariants[personal.variants]
                    ?? {
                        let types = Self.types(on: date, in: personal.profile)
                        typesByVariants[personal.variants] = types
                        return types
                    }()
                for type in types {
                    slots[Slot(type: type.type, time: Self.time(of: type, for: subject)), default: []].append(
                        subject.user.rawValue
                    )
                }
            }
            var jobs: [JobRecord] = []
            for (slot, users) in slots.sorted(by: { ($0.key.type, $0.key.time) < ($1.key.type, $1.key.time) }) {
                guard let instant = date.instant(at: slot.time, in: zone) else { continue }
                let trigger = Trigger(
                    type: slot.type,
                    date: date,
                    users: users,
                    plannedAt: Self.stamp(now),
                    zone: identifier
                )
                jobs.append(
                    Self.job(
                        trigger,
                        at: instant,
                        dedupeKey:
                            "trigger:\(slot.type):\(identifier):\(date.iso):\(slot.time):\(after?.rawValue ?? "")"
                    )
                )
            }
            try await tx.enqueue(jobs, at: now)
            return subjects.count == Self.pageSize ? last : nil
        }
    }

    /// Plans what is left of `user`'s today, in their zone as it is now, from `now` on; nothing while the
    /// zone's own plan for today is still to come (it will take the user in as they are then).
    static func planRestOfToday(for user: User.ID, rules: Rules, at now: Date, in tx: Transaction) async throws {
        guard let (identifier, subject) = try await tx.reminders.subject(of: user),
            let zone = TimeZone(identifier: identifier)
        else { return }
        let date = LocalDate(now, in: zone)
        let zonePlan = try await tx.jobs.job(
            withDedupeKey: ZoneBatch.dedupeKey(Self.planDay, zone: identifier, date: date)
        )
        if let zonePlan, zonePlan.status == .pending, zonePlan.leaseOwner == nil { return }  // queued, not started
        if zonePlan == nil, let due = date.instant(at: Self.planTime, in: zone),
            now.timeIntervalSince(due) < ZoneScheduler.defaultCatchUp
        {
            return  // the scheduler queues it at its time, or makes it up at its next tick
        }
        let stamp = try await tx.reminders.advancePlan(of: user, to: Self.stamp(now))
        var jobs: [JobRecord] = []
        let profile = try await rules.personal(user, on: date, in: tx, at: now, exposing: false).profile
        for type in Self.types(on: date, in: profile) {
            guard let instant = date.instant(at: Self.time(of: type, for: subject), in: zone), instant > now else {
                continue
            }
            let trigger = Trigger(
                type: type.type,
                date: date,
                users: [user.rawValue],
                plannedAt: stamp,
                zone: identifier
            )
            jobs.append(
                Self.job(
                    trigger,
                    at: instant,
                    dedupeKey: "trigger:\(type.type):user:\(user.rawValue):\(date.iso):\(stamp)"
                )
            )
        }
        try await tx.enqueue(jobs, at: now)
    }

    private static func job(_ trigger: Trigger, at instant: Date, dedupeKey: String) -> JobRecord {
        JobRecord(
            id: UUID().uuidString.lowercased(),
            kind: Self.trigger,
            payload: trigger.payload,
            dedupeKey: dedupeKey,
            runAt: instant,
            maxAttempts: 5
        )
    }

    /// The types planned for `date`: those scheduled that day whose trigger exists.
    public static func types(on date: LocalDate, in profile: RuleProfile) -> [NotificationType] {
        profile.notifications.types.filter {
            $0.isScheduled(on: date) && RaisedType(rawValue: $0.type)?.isScheduled == true
        }
    }

    /// The local time a type goes out for this user: the reminder time they chose, for a type that follows
    /// it; else for a personalised type the habit's (`habitLead` before their habitual time, once known);
    /// else the type's own.
    static func time(of type: NotificationType, for subject: ReminderSubject) -> LocalTime {
        if type.followsReminderTime, let chosen = subject.chosenReminderTime { return chosen }
        // Scheduled types have their time (the profile loader refuses one without).
        let own = type.at ?? NotificationPreferences.defaults.reminderTime
        guard type.personalised else { return own }
        var preferences = NotificationPreferences.defaults
        preferences.quietStart = subject.quietStart
        preferences.quietEnd = subject.quietEnd
        return SendTime.plan(fallback: own, habitual: subject.habit, lead: type.habitLead, preferences: preferences)
    }

    /// The trigger at its time, for each of its users: what is true now decides whether there is anything to say.
    private func fire(_ job: JobRecord) async throws {
        let trigger = try JSONDecoder().decode(Trigger.self, from: Data(job.payload.utf8))
        // Made up as late as a missed tick is, no later: the day's copy would be about a day gone by.
        guard self.clock.now().timeIntervalSince(job.runAt) < ZoneScheduler.defaultCatchUp else { return }
        let users = trigger.users.map(User.ID.init)
        let plans = try await self.store.read { tx in try await tx.reminders.plans(of: users) }
        for user in users {
            // Planned again since (a new reminder time), or moved to another zone (whose plan takes them in):
            // the newer plan's trigger speaks for them.
            if let plannedAt = trigger.plannedAt, let stamp = plans[user]?.stamp, stamp > plannedAt { continue }
            if let zone = trigger.zone, let now = plans[user]?.zone, now != zone { continue }
            do {
                guard let candidate = try await self.triggers.candidate(trigger.type, for: user, on: trigger.date)
                else { continue }
                _ = try await self.notifications.notify(candidate, to: user)
            } catch DomainError.notFound {
                continue  // the account is gone
            }
        }
    }
}
