import FitCircleCore
import FitCircleEngine
import FitCircleJobs
import FitCircleStore
import FitCircleTesting
import Foundation
import Logging
import Testing

/// The daily check-in reminder, planned per zone and sent at each user's own time.
struct ReminderTests {
    /// The reminders about `day` (their dedupe key names it). A helper of its own: written inline, this
    /// filter found nothing in a debug build where the same records, printed, were there (see issue 43's note).
    static func reminders(_ app: TestApp, of user: User.ID, about day: String) async throws -> [NotificationRecord] {
        try await Self.reminders(app, of: user).filter { $0.dedupeKey == "daily_checkin_reminder:\(day)" }
    }

    static func reminders(_ app: TestApp, of user: User.ID) async throws -> [NotificationRecord] {
        try await app.store.read { tx in
            try await tx.notifications.list(of: user, type: "daily_checkin_reminder", limit: 10)
        }
    }

    @Test(arguments: Backend.available)
    func usersFarApartAreRemindedAtTheirOwn2000AndNotWhenTheyCheckedIn(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_409_600))  // 2026-03-02 00:00 UTC
            var users: [(User.ID, TimeZone)] = []
            for (index, zone) in TestZones.farApart.enumerated() {
                let id = try await app.devSignIn("user\(index)@example.com", timeZone: zone).user.id
                users.append((User.ID(id), TimeZone(identifier: zone)!))
            }
            // Paris (01:00 there) checks in on 2 March.
            _ = try await app.engine.streaks.checkIn(.init(checkIn: CheckIn(mood: 4, energy: 3)), for: users[2].0)
            try await app.passTime(hours: 32)

            for (user, zone) in users {
                let sent = try await Self.reminders(app, of: user)
                #expect(!sent.isEmpty, "\(zone.identifier)")
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                for reminder in sent {
                    let local = calendar.dateComponents([.hour, .minute], from: reminder.decidedAt)
                    #expect(local.hour == 20 && local.minute! < 15, "\(zone.identifier): \(reminder.decidedAt)")
                    #expect(reminder.date == LocalDate(reminder.decidedAt, in: zone))
                    let expected: NotificationRecord.Status =
                        user == users[2].0 && reminder.date.iso == "2026-03-02" ? .dropped : .sent
                    #expect(
                        reminder.status == expected,
                        "\(zone.identifier) \(reminder.date): \(reminder.reason ?? "")"
                    )
                }
            }
            let paris = try await Self.reminders(app, of: users[2].0).first { $0.date.iso == "2026-03-02" }
            #expect(paris?.reason == "the day's goal is already met")
        }
    }

    /// Issue 48: a node down on the Saturday evening of the October clock change (Paris, 24–25 October 2026)
    /// made up Saturday's 20:00 reminder at 00:14 on Sunday; quiet hours deferred it and it went out at noon
    /// about a day gone by. Made up after its day is over where the person is, it is dropped and said why.
    @Test(arguments: Backend.available)
    func aRemindersDayThatIsOverIsNotRemindedOfNextMorning(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let paris = TimeZone(identifier: "Europe/Paris")!
            app.clock.set(
                LocalDate(clampingYear: 2026, month: 10, day: 24).instant(at: LocalTime.at(12, 0), in: paris)
                    ?? app.clock.now
            )
            let user = User.ID(try await app.devSignIn("ana@example.com", timeZone: "Europe/Paris").user.id)
            // Up to 19:45, when the node stops: Saturday's 20:00 trigger is due and nobody runs it.
            try await app.passTime(
                until: LocalDate(clampingYear: 2026, month: 10, day: 24).instant(at: LocalTime.at(19, 45), in: paris)
                    ?? app.clock.now
            )
            #expect(
                try await Self.reminders(app, of: user).filter {
                    $0.date.iso == "2026-10-24" && $0.status == .sent
                }.isEmpty
            )
            // Back at 00:14 on Sunday (the clocks go back at 03:00 that night), within the scheduler's catch-up.
            app.clock.set(
                LocalDate(clampingYear: 2026, month: 10, day: 25).instant(at: LocalTime.at(0, 14), in: paris)
                    ?? app.clock.now
            )
            try await app.passTime(hours: 14)
            // The record is of the day it was decided on; the dedupe key names the day it was about.
            let saturday = try await Self.reminders(app, of: user, about: "2026-10-24")
            #expect(
                !saturday.isEmpty && saturday.allSatisfy { $0.status == .dropped },
                "\(saturday.map { "\($0.dedupeKey) \($0.status) \($0.reason ?? "")" })"
            )
            #expect(
                saturday.contains { $0.reason == "its day (2026-10-24) is over where the user is" },
                "\(saturday.map { $0.reason ?? "" })"
            )
        }
    }

    /// Spec 001, NOTIF-03 with spec 000's lead: a user who checks in around 07:10 is reminded about 06:25.
    @Test(arguments: Backend.available)
    func aUserWhoUsuallyChecksInAt0710IsRemindedBefore(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let paris = TimeZone(identifier: "Europe/Paris")!
            app.clock.set(Date(timeIntervalSince1970: 1_772_409_600))  // 2026-03-02 00:00 UTC, 01:00 in Paris
            let id = try await app.devSignIn("early@example.com", timeZone: "Europe/Paris").user.id
            let user = User.ID(id)
            _ = try await app.engine.notifications.update(of: user) { preferences in
                var preferences = preferences
                preferences.quietEnd = LocalTime("06:00")!
                return preferences
            }
            // 20 mornings of check-ins between 07:05 and 07:15, before 2 March.
            let inputs = (1...20).map { daysAgo -> ActivityInput in
                let date = LocalDate(year: 2026, month: 3, day: 2)!.adding(days: -daysAgo)
                let at = date.instant(at: LocalTime(hour: 7, minute: 5 + daysAgo % 11)!, in: paris)!
                return ActivityInput(
                    clientEventID: "check-in:\(date.iso)",
                    occurredAt: at,
                    timeZone: "Europe/Paris",
                    source: .app,
                    payload: .checkIn(CheckIn(mood: 4, energy: 3)),
                    date: date
                )
            }
            let outcomes = try await app.engine.activities.recordBatch(inputs, for: user)
            #expect(outcomes.allSatisfy { $0.event != nil }, "\(outcomes)")
            #expect(try await app.store.read { tx in try await tx.reminders.sendHabits() }[user] == LocalTime("07:10"))
            #expect(try await app.engine.replay.sendHabitDifferences().isEmpty)
            try await app.passTime(hours: 8)
            let reminder = try #require(try await Self.reminders(app, of: user).first)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = paris
            let local = calendar.dateComponents([.hour, .minute], from: reminder.decidedAt)
            let minutes = local.hour! * 60 + local.minute!
            #expect((6 * 60 + 10)...(6 * 60 + 40) ~= minutes, "\(local)")

            // A time the user sets wins over the learned one (spec 000 F8): from the next day, 21:00.
            let token = try await app.devSignIn("early@example.com").accessToken
            _ = try await app.request(.put, "/api/user/profile", token: token, json: TestApp.validProfile())
            let saved = try await app.request(
                .put,
                "/api/notifications/preferences",
                token: token,
                json: ["reminderTime": "21:00"]
            )
            #expect(saved.status == .ok, "\(saved.text)")
            try await app.passTime(hours: 40)
            let chosen = try #require(try await Self.reminders(app, of: user).first { $0.date.iso == "2026-03-03" })
            #expect(
                calendar.dateComponents([.hour, .minute], from: chosen.decidedAt) == DateComponents(hour: 21, minute: 0)
            )
        }
    }

    /// Two scheduler nodes tick together; a worker takes the day's triggers and dies before finishing;
    /// another takes them over when the lease expires; the first comes back and runs its copy anyway.
    /// Each user's reminder is decided once and has one outbox job per channel.
    @Test(arguments: Backend.available)
    func eachReminderIsInTheOutboxOnceDespiteTwoSchedulersAndAKilledWorker(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_409_600))  // 2026-03-02 00:00 UTC
            var users: [User.ID] = []
            for index in 0..<6 {
                let id = try await app.devSignIn("u\(index)@example.com", timeZone: "Europe/Paris").user.id
                users.append(User.ID(id))
                _ = try await app.engine.notifications.register(
                    platform: .android,
                    token: "token-\(index)",
                    environment: .production,
                    for: User.ID(id)
                )
            }
            let logger = Logger(label: "test")
            let schedulers = (0..<2).map { _ in
                ZoneScheduler(
                    store: app.store,
                    schedules: app.engine.jobs.schedules,
                    clock: app.clock.wallClock,
                    logger: logger
                )
            }
            // The outbox stays as the triggers leave it: delivering is not this test's subject.
            let handlers = app.engine.jobs.handlers.filter { $0.key != Notifications.deliver }
            let survivor = JobRunner(
                store: app.store,
                handlers: handlers,
                clock: app.clock.wallClock,
                logger: logger,
                owner: "survivor"
            )
            // Until 20:00 in Paris (19:00 UTC): plan the day.
            for _ in 0..<(19 * 4) {
                async let a = schedulers[0].tick()
                async let b = schedulers[1].tick()
                _ = try await (a, b)
                while try await survivor.runDue(limit: 50) > 0 {}
                app.clock.advance(by: 900)
            }
            // The doomed worker leases the due triggers (the reminder's and data submission's, each one job
            // for the six users, whose 20:00 is the same instant), gets through half of the reminder's users
            // and dies.
            let now = app.clock.now
            let leased = try await app.store.transaction { tx in
                try await tx.jobs.claim(
                    kinds: [ReminderPlanner.trigger],
                    limit: 100,
                    owner: "doomed",
                    leaseUntil: now.addingTimeInterval(120),
                    now: now
                )
            }
            #expect(leased.count == 2)
            let trigger = try #require(leased.first { $0.payload.contains("daily_checkin_reminder") })
            var payload = try #require(
                try JSONSerialization.jsonObject(with: Data(trigger.payload.utf8)) as? [String: Any]
            )
            #expect((payload["users"] as? [String])?.count == users.count)
            payload["users"] = (payload["users"] as? [String])?.prefix(3).map { $0 }
            var half = trigger
            half.payload = String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self)
            try await app.engine.jobs.handlers[trigger.kind]!(half)
            #expect(try await survivor.runDue(limit: 50) == 0)
            app.clock.advance(by: 121)
            #expect(try await survivor.runDue(limit: 50) == leased.count)
            // It comes back and runs the whole jobs it had leased.
            for job in leased { try await app.engine.jobs.handlers[job.kind]!(job) }

            var reminderIDs: [String] = []
            for user in users {
                let reminders = try await Self.reminders(app, of: user)
                #expect(reminders.count == 1)
                #expect(reminders.first?.status == .sent)
                reminderIDs += reminders.map(\.id.rawValue)
            }
            // The reminders' deliveries (the morning's "goals ready" has its own).
            let outbox = try await app.store.read { tx in try await tx.jobs.all(kind: Notifications.deliver) }.filter {
                job in
                reminderIDs.contains { job.dedupeKey.hasPrefix("deliver:\($0):") }
            }
            #expect(outbox.count == users.count)
            #expect(Set(outbox.map(\.dedupeKey)).count == users.count)
        }
    }

    /// Spec 000: a user who checked in Monday and Tuesday and missed Wednesday hears at 09:00 on Thursday that
    /// the streak is at risk; one who checked in every day does not.
    @Test(arguments: Backend.available)
    func aMissedDayPutsTheStreakAtRiskAt0900(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            // Monday 2 March 2026, 07:00 UTC (08:00 in Paris)
            app.clock.set(Date(timeIntervalSince1970: 1_772_434_800))
            var users: [User.ID] = []
            for email in ["missed@example.com", "steady@example.com"] {
                let id = try await app.devSignIn(email, timeZone: "Europe/Paris").user.id
                users.append(User.ID(id))
            }
            for day in 0..<4 {
                for (index, user) in users.enumerated() where !(index == 0 && day >= 2) {
                    _ = try await app.engine.streaks.checkIn(.init(checkIn: CheckIn(mood: 4, energy: 3)), for: user)
                }
                try await app.passTime(hours: 24)
            }
            let (missedUser, steadyUser) = (users[0], users[1])
            let missed = try await app.store.read { tx in
                try await tx.notifications.list(of: missedUser, type: "streak_at_risk", limit: 10)
            }
            #expect(missed.map(\.date.iso) == ["2026-03-05"])
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
            #expect(missed.first.map { calendar.component(.hour, from: $0.decidedAt) } == 9)
            #expect(
                missed.first?.body
                    == "🔥 Your 2-day streak is at risk! Your freeze covered yesterday; check in today to keep it going."
            )
            let steady = try await app.store.read { tx in
                try await tx.notifications.list(of: steadyUser, type: "streak_at_risk", limit: 10)
            }
            #expect(steady.isEmpty)
        }
    }
}
