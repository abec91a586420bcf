import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Spec 000's research takeaway: "guide new users to 4+ check-ins in week 1 through aggressive onboarding
/// nudges". In the first seven days, until the fourth check-in, the morning's goals and the evening's
/// check-in reminder say how many of the four are done — in notifications the day sends anyway, so the
/// nudge spends nobody's budget — while Flow 1's own words for days 1 and 2 stay as the document has them.
struct Spec000FirstWeekTests {
    static let zone = "Europe/Paris"

    @Test(arguments: Backend.available)
    func research_newUsersAreNudgedTowardFourCheckInsInTheirFirstWeek(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "07:00")  // a Monday
            let eager = try await Member.onboarded("eager@example.com", in: Self.zone, app: app)
            let idle = try await Member.onboarded("idle@example.com", in: Self.zone, app: app)
            func said(_ member: Member, _ type: String, on date: String) async throws -> String? {
                let decided = try await app.notifications(type, token: try await member.token)
                    .first { world.decided($0)?.hasPrefix(date) == true && $0.status.rawValue != "dropped" }
                return decided?.body
            }
            func checkIn(_ member: Member, _ date: String, at time: String) async throws {
                try await world.run(until: date, time, step: 3_600)
                try await app.checkIn(token: try await member.token)
            }
            let morning = "☀️ Good morning! Your daily goals are ready: 7,000 steps and a check-in"
            // Day 1: no check-in; the evening says Flow 1's words.
            try await world.run(until: "2026-03-02", "21:00")
            #expect(
                try await said(eager, "daily_goals_ready", on: "2026-03-02")
                    == "\(morning) (0 of 4 in your first week—people who reach 4 keep going)."
            )
            #expect(
                try await said(eager, "daily_checkin_reminder", on: "2026-03-02")
                    == "⏰ Complete your check-in to start your streak!"
            )
            // Days 2 and 3: checked in in the morning, after the goals said 0 and 1 of 4.
            try await checkIn(eager, "2026-03-03", at: "10:00")
            #expect(
                try await said(eager, "daily_goals_ready", on: "2026-03-03")
                    == "\(morning) (0 of 4 in your first week—people who reach 4 keep going)."
            )
            try await checkIn(eager, "2026-03-04", at: "10:00")
            #expect(
                try await said(eager, "daily_goals_ready", on: "2026-03-04")
                    == "\(morning) (1 of 4 in your first week—people who reach 4 keep going)."
            )
            // Day 4: the evening's reminder protects the streak and counts the week; a late check-in follows.
            try await checkIn(eager, "2026-03-05", at: "21:00")
            #expect(
                try await said(eager, "daily_checkin_reminder", on: "2026-03-05")
                    == "⏰ Keep your 2-day streak alive: 2 of 4 check-ins in your first week, 2 to go!"
            )
            // Day 5: the fourth. Day 6: four reached, the copy is everyone's again.
            try await checkIn(eager, "2026-03-06", at: "10:00")
            try await world.run(until: "2026-03-07", "21:00", step: 3_600)
            #expect(try await said(eager, "daily_goals_ready", on: "2026-03-07") == "\(morning).")
            #expect(
                try await said(eager, "daily_checkin_reminder", on: "2026-03-07")
                    == "⏰ Complete your check-in to keep your 4-day streak alive!"
            )

            // Someone who never checks in is nudged through day 7, and not after the first week.
            try await world.run(until: "2026-03-09", "09:00", step: 3_600)
            #expect(
                try await said(idle, "daily_goals_ready", on: "2026-03-08")
                    == "\(morning) (0 of 4 in your first week—people who reach 4 keep going)."
            )
            #expect(try await said(idle, "daily_goals_ready", on: "2026-03-09") == "\(morning).")
        }
    }
}
