import FitCircleClient
import FitCircleTesting
import Foundation
import Testing

/// Spec 000, "Flow 1: New User First Week", replayed day by day through the API in Paris from a sign-up on
/// Monday 2 March 2026. The flow's own days disagree (day 1 checks in and is then reminded to; day 7 is "the
/// 7th consecutive check-in" after day 5 was missed): the tests read day 1's 20:00 reminder as the one of a
/// newcomer who has not checked in yet, and the milestone as the 7th check-in, which a frozen day 5 moves to
/// day 8.
struct Spec000Flow1Tests {
    static let zone = "Europe/Paris"

    @Test(arguments: Backend.available)
    func flow1_day1_step7_aMidMorningSignUpIsRemindedAt2000ToStartTheStreak(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "00:00")
            try await world.run(until: "2026-03-02", "10:00")  // the day's plan at 00:10 knows nobody yet
            let alex = try await Member.onboarded("alex@example.com", in: Self.zone, app: app)
            try await world.run(until: "2026-03-02", "20:15")

            let reminders = try await app.notifications("daily_checkin_reminder", token: try await alex.token)
            #expect(reminders.count == 1, "\(reminders)")
            let reminder = try #require(reminders.first)
            #expect(reminder.body == "⏰ Complete your check-in to start your streak!")
            #expect(reminder.status.rawValue == "sent")
            #expect(world.decided(reminder) == "2026-03-02 20:00")
        }
    }

    @Test(arguments: Backend.available)
    func flow1_day1_aNewReminderTimeOrZoneIsPlannedForTheRestOfTheDayAndTheOldTimeIsPassedOver(_ backend: Backend)
        async throws
    {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "09:00")
            let alex = try await Member.onboarded("alex@example.com", in: Self.zone, app: app)
            try await world.run(until: "2026-03-02", "12:00")
            let saved = try await app.request(
                .put,
                "/api/notifications/preferences",
                token: try await alex.token,
                json: ["reminderTime": "21:30"]
            )
            #expect(saved.status == .ok, "\(saved.text)")
            try await world.run(until: "2026-03-02", "22:00")
            let reminders = try await app.notifications("daily_checkin_reminder", token: try await alex.token)
            #expect(reminders.count == 1, "\(reminders)")
            #expect(world.decided(reminders.first) == "2026-03-02 21:30")
        }
    }

    /// A user who flies from Paris to New York at noon hears the day's reminder at 20:00 in New York, once;
    /// Paris's 20:00, planned before, passes them over.
    @Test(arguments: Backend.available)
    func aUserWhoTravelsIsRemindedAt2000WhereTheyAreNow(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let paris = World(app, zone: Self.zone)
            let newYork = World(app, zone: "America/New_York")
            paris.start(at: "2026-03-02", "09:00")
            let alex = try await Member.onboarded("alex@example.com", in: Self.zone, app: app)
            try await paris.run(until: "2026-03-02", "12:00")
            let moved = try await app.request(
                .put,
                "/api/user/profile",
                token: try await alex.token,
                json: TestApp.validProfile(timeZone: "America/New_York")
            )
            #expect(moved.status == .ok, "\(moved.text)")
            try await newYork.run(until: "2026-03-02", "21:00")
            let reminders = try await app.notifications("daily_checkin_reminder", token: try await alex.token)
            #expect(reminders.count == 1, "\(reminders)")
            #expect(newYork.decided(reminders.first) == "2026-03-02 20:00")
        }
    }

    @Test(arguments: Backend.available)
    func flow1_days1to8_checkIns_aFrozenDay5_theAtRiskPush_the7DayMilestoneAndPersonalisedGoals(_ backend: Backend)
        async throws
    {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "10:00")
            let alex = try await Member.onboarded("alex@example.com", in: Self.zone, app: app)
            let steps = [7_234, 8_102, 6_950, 8_400, 5_120, 7_800, 7_612]
            func sync(_ day: Int) async throws { try await alex.sync(steps: steps[day - 1], "steps-\(day)") }

            // Day 1: the first check-in starts the streak; no reminder that evening (nothing left to do).
            try await world.run(until: "2026-03-02", "12:00")
            let first = try await app.checkIn(token: try await alex.token)
            #expect(first.streak.current == 1)
            try await sync(1)
            try await world.run(until: "2026-03-02", "23:00")
            #expect(
                try await app.notifications("daily_checkin_reminder", token: try await alex.token).first?.status
                    .rawValue == "dropped"
            )

            // Day 2: reminded at 20:00 to keep it going, then checks in.
            try await world.run(until: "2026-03-03", "20:15")
            let reminder = try #require(
                try await app.notifications("daily_checkin_reminder", token: try await alex.token).first
            )
            #expect(reminder.body == "⏰ Keep it going! Complete your check-in for a 2-day streak.")
            #expect(reminder.status.rawValue == "sent")
            // Acknowledging day 1's steps against day 1's goal.
            let second = try await app.checkIn(token: try await alex.token)
            #expect(second.previousDay.steps == 7_234)
            try await sync(2)

            // Days 3 and 4 at noon.
            for (day, date) in [(3, "2026-03-04"), (4, "2026-03-05")] {
                try await world.run(until: date, "12:00")
                try await app.checkIn(token: try await alex.token)
                try await sync(day)
            }
            // Day 5: forgotten (steps still sync). Day 6, 09:00: the freeze covered day 5, the streak is at risk.
            try await world.run(until: "2026-03-06", "12:00")
            try await sync(5)
            try await world.run(until: "2026-03-07", "09:15")
            let atRisk = try #require(try await app.notifications("streak_at_risk", token: try await alex.token).first)
            #expect(
                atRisk.body
                    == "🔥 Your 4-day streak is at risk! Your freeze covered yesterday; check in today to keep it going."
            )
            let streak = try await alex.api.getCurrentStreak().ok.body.json
            #expect(streak.current == 4)
            #expect(streak.recent.first?.status == .frozen)
            #expect(streak.freezesLeft == 0)
            try await app.checkIn(token: try await alex.token)
            try await sync(6)

            // Day 7 and day 8: the 7th check-in is the first milestone.
            try await world.run(until: "2026-03-08", "12:00")
            try await app.checkIn(token: try await alex.token)
            try await sync(7)
            try await world.run(until: "2026-03-09", "12:00")
            let seventh = try await app.checkIn(token: try await alex.token)
            #expect(seventh.milestone?.badge == "1 Week Warrior")
            #expect(seventh.message == "🎉 1 Week Warrior unlocked!")
            try await world.run(until: "2026-03-09", "12:15")
            let milestone = try #require(
                try await app.notifications("streak_milestone", token: try await alex.token).first
            )
            #expect(
                milestone.body == "🎉 You did it! 7-day streak complete. 1 Week Warrior badge unlocked!"
            )
            #expect(milestone.status.rawValue == "sent")

            // Day 8's goals follow the first week: the average of 7 days with steps (7,317) + 10 %, to 8,000,
            // announced once (planned at 00:00, told after quiet hours).
            let goals = try await app.api(try await alex.token).getDailyGoals().ok.body.json
            #expect(goals[.steps]?.target == 8_000)
            let announced = try await app.notifications("goals_personalized", token: try await alex.token)
            #expect(announced.count == 1)
            #expect(
                announced.first?.body
                    == "📈 Your daily goals are now personalized based on your baseline: 8,000 steps a day."
            )
            #expect(announced.first?.status.rawValue == "sent")
            // F2: the new week (Monday 9 March) totals the personalised daily goal × 7.
            let weekly = try await app.api(try await alex.token).getWeeklyGoals().ok.body.json
            #expect(weekly[.steps]?.target == 56_000)
        }
    }

    /// Flow 1, day 1, step 2: "conservative daily goals (5K steps, check-in only)" for a newcomer who says
    /// they are sedentary; F1's 7,000 for a moderate one; F2's weekly 50,000 until the goal is personalised.
    @Test(arguments: Backend.available)
    func flow1_day1_step2_aSedentaryNewcomerStartsAt5000StepsAndACheckIn_f2_week50000(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "10:00")
            for (email, baseline, expected) in [
                ("sam@example.com", "sedentary", 5_000.0), ("mo@example.com", "moderate", 7_000.0),
            ] {
                let token = try await app.devSignIn(email).accessToken
                var profile = TestApp.validProfile(timeZone: Self.zone)
                profile["activityBaseline"] = baseline
                let saved = try await app.request(.put, "/api/user/profile", token: token, json: profile)
                let savedBaseline = try saved.decoded(as: Components.Schemas.Profile.self).activityBaseline
                #expect(savedBaseline?.rawValue == baseline, "\(saved.text)")
                let daily = try await app.api(token).getDailyGoals().ok.body.json
                #expect(daily.goals.map(\._type.rawValue).sorted() == ["check_in", "steps"])
                #expect(daily[.steps]?.target == expected, "\(baseline)")
                let weekly = try await app.api(token).getWeeklyGoals().ok.body.json
                #expect(weekly[.steps]?.target == 50_000)
            }
            let token = try await app.devSignIn("sam@example.com").accessToken
            var wrong = TestApp.validProfile(timeZone: Self.zone)
            wrong["activityBaseline"] = "couch"
            let refused = try await app.request(.put, "/api/user/profile", token: token, json: wrong)
            #expect(refused.status.code == 400 || refused.status.code == 422, "\(refused.text)")
            #expect(refused.text.contains("activityBaseline"), "\(refused.text)")
        }
    }

    @Test(arguments: Backend.available)
    func flow1_noGoalsArePlannedForTheDayBeforeSignUp(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "10:00")
            let alex = try await Member.onboarded("alex@example.com", in: Self.zone, app: app)
            let checkIn = try await app.checkIn(token: try await alex.token)
            #expect(checkIn.previousDay.stepGoal == nil, "\(checkIn)")
            _ = try await app.json("/api/goals/daily", token: try await alex.token)
            let history = try await app.api(try await alex.token).getDailyGoalHistory(query: .init(days: 7)).ok.body
                .json
            let days = history.periods.map(\.start)
            #expect(days == ["2026-03-02"], "\(history)")
        }
    }
}
