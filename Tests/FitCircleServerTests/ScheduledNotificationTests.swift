import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// The scheduled types beyond the daily reminder (spec 000's push and email tables), the notifications an
/// activity or a reward raises, and the shared budget over a busy week.
struct ScheduledNotificationTests {
    static let paris = TimeZone(identifier: "Europe/Paris")!

    static func signIn(_ app: TestApp, _ email: String, timeZone: String = "Europe/Paris") async throws -> (
        User.ID, String
    ) {
        let answer = try await app.devSignIn(email, timeZone: timeZone)
        return (User.ID(answer.user.id), answer.accessToken)
    }

    static func sent(_ app: TestApp, _ user: User.ID, _ type: String) async throws -> [NotificationRecord] {
        try await app.store.read { tx in try await tx.notifications.list(of: user, type: type, limit: 50) }.filter {
            $0.status == .sent
        }
    }

    static func localTime(_ record: NotificationRecord, in zone: TimeZone = Self.paris) -> String {
        "\(record.date.iso) \(LocalTime(record.decidedAt, in: zone))"
    }

    static func steps(_ app: TestApp, _ email: String, _ steps: Int, id: String) async throws {
        let response = try await app.request(
            .post,
            "/api/activities",
            token: try await Self.signIn(app, email).1,
            json: [
                "clientEventId": id, "type": "steps", "source": "healthkit",
                "occurredAt": ISO8601DateFormatter().string(from: app.clock.now),
                "steps": steps,
            ]
        )
        #expect(response.status == .created, "\(response.text)")
    }

    /// Spec 000: the monthly report on the 1st at 09:00 (by email, about the month before), the week in
    /// review on Sunday at 20:00, and "weekly goal progress" on Wednesday at 18:00 only under half the goal.
    @Test(arguments: Backend.available)
    func weeklyAndMonthlyTypesGoOutOnTheirDayAtTheirTime(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            // Saturday 28 February 2026, 00:00 UTC (01:00 in Paris)
            app.clock.set(Date(timeIntervalSince1970: 1_772_236_800))
            _ = try await app.onboardedUser("walker@example.com")
            let (walker, _) = try await Self.signIn(app, "walker@example.com")
            let (idle, _) = try await Self.signIn(app, "idle@example.com")
            try await Self.steps(app, "walker@example.com", 6_000, id: "feb-28")
            try await app.passTime(hours: 48)  // to Monday 2 March, 01:00
            try await Self.steps(app, "walker@example.com", 15_000, id: "mar-2")
            try await app.passTime(hours: 24)
            try await Self.steps(app, "walker@example.com", 15_000, id: "mar-3")
            try await app.passTime(hours: 48)  // to Thursday 5 March, 01:00

            let report = try #require(try await Self.sent(app, walker, "monthly_report").first)
            #expect(Self.localTime(report) == "2026-03-01 09:00")
            #expect(report.channels == [.email])
            #expect(report.body == "February 2026: 6,000 steps, 0 check-ins, best streak 0 days.")
            let digests = try await Self.sent(app, walker, "weekly_digest")
            #expect(digests.map { Self.localTime($0) } == ["2026-03-01 20:00"])
            #expect(digests.first?.body == "📅 Week in Review: 6,000 steps, 0-day streak")

            // The week's step goal is 7 × 7,000 = 49,000: 30,000 by Wednesday is past half, nothing is not.
            #expect(try await Self.sent(app, walker, "weekly_goal_progress").isEmpty)
            let progress = try await Self.sent(app, idle, "weekly_goal_progress")
            #expect(progress.map { Self.localTime($0) } == ["2026-03-04 18:00"])
            #expect(
                progress.first?.body
                    == "📊 You're halfway through the week but only at 0% of your step goal. You've got this!"
            )
        }
    }

    /// Spec 000's email table: the 21:00 check-in email only reaches users no push reaches; the welcome
    /// email is raised once, when onboarding is done.
    @Test(arguments: Backend.available)
    func theCheckInEmailIsForUsersWithoutAPushDeviceAndTheWelcomeComesOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_409_600))  // Monday 2 March 2026, 00:00 UTC
            let (withDevice, _) = try await Self.signIn(app, "phone@example.com")
            _ = try await app.engine.notifications.register(
                platform: .ios,
                token: "apns-1",
                environment: .production,
                for: withDevice
            )
            let (withoutDevice, _) = try await Self.signIn(app, "web@example.com")
            _ = try await app.onboardedUser("web@example.com")
            let token = try await Self.signIn(app, "web@example.com").1
            #expect(
                try await app.request(
                    .put,
                    "/api/user/profile",
                    token: token,
                    json: TestApp.validProfile(timeZone: "Europe/Paris")
                ).status == .ok
            )
            try await app.passTime(hours: 24)

            #expect(try await Self.sent(app, withDevice, "daily_checkin_email").isEmpty)
            let email = try await Self.sent(app, withoutDevice, "daily_checkin_email")
            #expect(email.map { Self.localTime($0) } == ["2026-03-02 21:00"])
            #expect(email.first?.channels == [.email])
            let welcome = try await Self.sent(app, withoutDevice, "welcome")
            #expect(welcome.count == 1)
            #expect(welcome.first?.body == "Hi Ana, your first goal is 7,000 steps. Let's go!")
            #expect(try await Self.sent(app, withDevice, "welcome").isEmpty)  // never onboarded
        }
    }

    /// Spec 000 F7: "As a user who disabled push, I want email reminders" — a user with a phone who switched
    /// push off gets the 21:00 check-in email as if they had no device, and a streak at risk by email; one
    /// who also switched email off gets neither by email.
    @Test(arguments: Backend.available)
    func f7_aUserWhoDisabledPushGetsEmailReminders(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_409_600))  // Monday 2 March 2026, 00:00 UTC
            var people: [User.ID] = []
            for (email, preferences) in [
                ("push-off@example.com", ["push": false]), ("all-off@example.com", ["push": false, "email": false]),
            ] {
                _ = try await app.onboardedUser(email)
                let (user, token) = try await Self.signIn(app, email)
                _ = try await app.engine.notifications.register(
                    platform: .ios,
                    token: "apns-\(email)",
                    environment: .production,
                    for: user
                )
                let saved = try await app.request(
                    .put,
                    "/api/notifications/preferences",
                    token: token,
                    json: preferences
                )
                #expect(saved.status == .ok, "\(saved.text)")
                people.append(user)
            }
            try await app.passTime(hours: 24)
            let email = try await Self.sent(app, people[0], "daily_checkin_email")
            #expect(email.map { Self.localTime($0) } == ["2026-03-02 21:00"])
            #expect(email.first?.channels == [.email])
            #expect(try await Self.sent(app, people[1], "daily_checkin_email").isEmpty)

            // Through the policy: the streak at risk (push and in-app, email when push cannot reach).
            app.clock.advance(by: 9 * 3600)  // Tuesday 10:00 in Paris, out of quiet hours
            let candidate = NotificationCandidate(
                type: .streakAtRisk,
                dedupeKey: "f7",
                data: ["streak": "4", "freezesLeft": "0", "freeze": "left"]
            )
            let told = try await app.engine.notifications.notify(candidate, to: people[0])
            #expect(told.channels == [.email, .inApp], "\(told.trail)")
            #expect(told.trail.contains("push cannot reach the user: by email instead"))
            #expect(try await app.engine.notifications.notify(candidate, to: people[1]).channels == [.inApp])
        }
    }

    /// Spec 001: NOTIF-02 "almost there" once a day within 5 push-ups of the goal; the bonus and badges as
    /// achievements (WEEKLY-03); NOTIF-01 the weekly push-up streak at risk after two days without a workout.
    @Test(arguments: Backend.available)
    func pushupNudgesAchievementsAndTheWeeklyStreakAtRisk(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            // Monday 2 March 2026, 10:00 UTC (11:00 in Paris)
            app.clock.set(Date(timeIntervalSince1970: 1_772_445_600))
            let (user, _) = try await Self.signIn(app, "ana@example.com")
            try await app.recordPushups("s1", series: 1, reps: 30)
            try await app.recordPushups("s2", series: 2, reps: 15)  // 45 of 50: 5 left
            try await app.recordPushups("s3", series: 3, reps: 3)  // 48: still almost there, but once a day
            try await app.passTime(hours: 1)
            let nudges = try await Self.sent(app, user, "almost_there")
            #expect(nudges.map(\.body) == ["Almost there! Just 5 more push-ups to reach your daily goal."])
            #expect(nudges.first?.channels == [.inApp])  // the user is in the app: no push

            // Three more days of 70 make the week's 250: the bonus and the badges come as achievements.
            for day in 1...3 {
                app.clock.advance(by: 86_400)
                try await app.recordPushups("w\(day)", series: 1, reps: 70)
            }
            try await app.passTime(hours: 1)
            let achievements = try await Self.sent(app, user, "achievement").map(\.body)
            #expect(achievements.contains("Weekly goal reached: +500 points"), "\(achievements)")
            let badges = try await app.store.read { tx in try await tx.points.unlockedBadges(of: user) }
            #expect(!badges.isEmpty)
            #expect(achievements.count == 1 + badges.count, "\(achievements) \(badges.map(\.name))")

            // The streak counts weeks (Monday to Sunday), and the week of 2 March counts. Nothing after
            // Thursday: on Monday 9 March, the new week's first day, Saturday and Sunday had no push-ups, so at
            // 09:00 (no habit learned from six workouts) the streak is at risk, and each day after while
            // nothing changes.
            try await app.passTime(hours: 24 * 6)
            let risks = try await Self.sent(app, user, "streak_at_risk").sorted { $0.decidedAt < $1.decidedAt }
            #expect(
                risks.map { Self.localTime($0) } == ["2026-03-09 09:00", "2026-03-10 09:00", "2026-03-11 09:00"],
                "\(risks.map { Self.localTime($0) })"
            )
            #expect(risks.first?.body == "Your streak is at risk! Complete a workout today to keep it going.")

            // NOTIF-03, "User can manually set notification time": a time set wins from the next day.
            let token = try await app.devSignIn("ana@example.com").accessToken
            #expect(
                try await app.request(
                    .put,
                    "/api/notifications/preferences",
                    token: token,
                    json: ["reminderTime": "19:30"]
                ).status == .ok
            )
            try await app.passTime(hours: 32)
            let later = try await Self.sent(app, user, "streak_at_risk").sorted { $0.decidedAt < $1.decidedAt }
            #expect(later.last.map { Self.localTime($0) } == "2026-03-12 19:30")
        }
    }

    /// Spec 000: whatever the triggers want, nobody gets more than 3 non-critical notifications in a local
    /// day. Twelve users in five zones get four days of scheduled types and a burst of social and leaderboard
    /// events at random moments.
    @Test(arguments: Backend.available)
    func nobodyGetsMoreThanThreeNonCriticalADay(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_409_600))  // Monday 2 March 2026, 00:00 UTC
            var users: [(User.ID, TimeZone)] = []
            for index in 0..<12 {
                let zone = TestZones.farApart[index % TestZones.farApart.count]
                let (user, _) = try await Self.signIn(app, "user\(index)@example.com", timeZone: zone)
                _ = try await app.engine.notifications.register(
                    platform: .android,
                    token: "fcm-\(index)",
                    environment: .production,
                    for: user
                )
                users.append((user, TimeZone(identifier: zone)!))
            }
            var random = SeededRandom(seed: 7)
            for hour in 0..<(24 * 4) {
                for (index, (user, _)) in users.enumerated() where Int.random(in: 0..<4, using: &random) == 0 {
                    let type = [RaisedType.socialEngagement, .leaderboardChange, .streakAtRisk].randomElement(
                        using: &random
                    )!
                    _ = try await app.engine.notifications.notify(
                        NotificationCandidate(
                            type: type,
                            dedupeKey: "event:\(hour):\(index)",
                            data: ["name": "Bo", "rank": "2"]
                        ),
                        to: user
                    )
                }
                try await app.passTime(hours: 1)
            }
            var budgetDrops = 0
            for (user, zone) in users {
                let all = try await app.store.read { tx in try await tx.notifications.list(of: user, limit: 1_000) }
                let nonCritical = all.filter { $0.status == .sent && !$0.critical }
                for (date, sent) in Dictionary(grouping: nonCritical, by: { LocalDate($0.decidedAt, in: zone) }) {
                    #expect(sent.count <= 3, "\(zone.identifier) \(date): \(sent.map(\.type))")
                }
                budgetDrops += all.filter { $0.reason == "the day's budget of 3 is spent" }.count
            }
            #expect(budgetDrops > 0)
        }
    }
}
