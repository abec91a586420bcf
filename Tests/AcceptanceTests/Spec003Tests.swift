import FitCircleCore
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Spec 003 (AstroFriends, sprint 1 and the ideas for sprint 2) under the `astrofriends` profile: the
/// app-open streak's pseudo-code, and the weekly reminder on Monday at 09:00 local.
struct Spec003Tests {
    static let zone = "America/Los_Angeles"

    static func open(_ member: Member, _ id: String) async throws {
        try await member.record(id, .appOpen)
    }

    static func streak(_ member: Member) async throws -> (current: Int?, longest: Int?) {
        let streak = try await member.app.json("/api/streaks/current", token: try await member.token)
        return (streak["current"] as? Int, streak["longest"] as? Int)
    }

    /// "if no lastActiveDate: 1; same calendar day: no change; exactly 1 day since: +1; gap > 1 day: reset to
    /// 1; always keep the longest" — days in the user's own zone (a late-night open is still that day).
    @Test(arguments: Backend.available)
    func streakLogic_firstOpenSameDayNextDayAndAGap(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "astrofriends") { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "08:00")
            let luna = try await Member.onboarded("luna@example.com", in: Self.zone, app: app)
            #expect(try await Self.streak(luna).current == 0)
            try await Self.open(luna, "o1")
            #expect(try await Self.streak(luna) == (1, 1))  // no lastActiveDate: 1
            world.start(at: "2026-03-02", "23:50")
            try await Self.open(luna, "o2")
            #expect(try await Self.streak(luna) == (1, 1))  // same calendar day: no change
            world.start(at: "2026-03-03", "00:10")
            try await Self.open(luna, "o3")
            #expect(try await Self.streak(luna) == (2, 2))  // exactly one day since: +1
            world.start(at: "2026-03-04", "21:00")
            try await Self.open(luna, "o4")
            #expect(try await Self.streak(luna) == (3, 3))
            world.start(at: "2026-03-06", "07:00")
            try await Self.open(luna, "o5")
            #expect(try await Self.streak(luna) == (1, 3))  // a gap of more than a day: 1, the longest kept
        }
    }

    /// Sprint 2: "weekly reminder scheduling (Monday 9am)", and "streak milestone celebrations (7 days)".
    @Test(arguments: Backend.available)
    func sprint2_theWeeklyReminderComesOnMondayAt0900AndSevenNightsAreCelebrated(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "astrofriends") { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-04", "12:00")  // a Wednesday
            let luna = try await Member.onboarded("luna@example.com", in: Self.zone, app: app)
            for (day, date) in [
                "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10",
            ].enumerated() {
                try await world.run(until: date, "12:00")
                try await Self.open(luna, "open-\(day)")
            }
            try await world.run(until: "2026-03-10", "12:15")
            let weekly = try await app.notifications("weekly_reminder", token: try await luna.token)
            #expect(weekly.count == 1, "\(weekly)")
            #expect(world.decided(weekly.first) == "2026-03-09 09:00")  // Monday
            #expect(weekly.first?.body == "A new week begins. See what's new this week.")
            let milestone = try await app.notifications("streak_milestone", token: try await luna.token)
            #expect(milestone.first?.body == "🌙 7 nights in a row! Seven Nights unlocked.")
        }
    }

    /// The streak reminder at 20:00 local (the profile's evening nudge): an evening without an open hears
    /// "keep your streak", one with an open hears nothing, and someone with no streak is asked to start one.
    @Test(arguments: Backend.available)
    func theStreakReminderComesAt2000OnlyOnEveningsWithoutAnOpen(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "astrofriends") { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "12:00")
            let luna = try await Member.onboarded("luna@example.com", in: Self.zone, app: app)
            let sol = try await Member.onboarded("sol@example.com", in: Self.zone, app: app)
            try await Self.open(luna, "o1")
            try await world.run(until: "2026-03-03", "12:00")
            try await Self.open(luna, "o2")  // Tuesday: opened before the evening
            try await world.run(until: "2026-03-04", "21:00")  // Wednesday: not opened
            let reminders = try await app.notifications("streak_reminder", token: try await luna.token)
            let sent = reminders.filter { $0.status.rawValue == "sent" }
            #expect(sent.map { world.decided($0) } == ["2026-03-04 20:00"], "\(reminders)")
            #expect(sent.first?.body == "Open AstroFriends today to keep your 2-night streak.")
            // The evenings after an open were decided and dropped: the night already counts.
            #expect(
                reminders.filter { $0.status.rawValue == "dropped" }.map { world.decided($0) } == [
                    "2026-03-03 20:00", "2026-03-02 20:00",
                ]
            )
            let never = try await app.notifications("streak_reminder", token: try await sol.token)
            #expect(never.first?.body == "Open AstroFriends tonight to start a streak.")
        }
    }

    /// §1 "New ✨" pills: content is new while its ISO week is the user's current week — in their own zone —
    /// and they have not seen it. At 20:00 UTC on Sunday 8 March it is already Monday (2026-W11) in Tokyo and
    /// still Sunday (2026-W10) in Los Angeles.
    @Test(arguments: Backend.available)
    func sprint1_newThisWeekFollowsEachUsersOwnWeekUntilSeen(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "astrofriends") { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_773_000_000))  // Sunday 8 March 2026, 20:00 UTC
            let luna = try await Member.onboarded("luna@example.com", in: "Asia/Tokyo", app: app)
            let sol = try await Member.onboarded("sol@example.com", in: Self.zone, app: app)
            let editor = try await Member.onboarded("editor@example.com", in: "UTC", app: app)
            let editorID = try await app.devSignIn(editor.email).user.id
            try await app.store.transaction { tx in try await tx.users.setRole(.operator, of: User.ID(editorID)) }
            for (key, week) in [
                ("horoscope:aries", "2026-W10"), ("horoscope:aries", "2026-W11"),
                ("compatibility:aries-leo", "2026-W11"),
            ] {
                let published = try await app.request(
                    .put,
                    "/api/content/weekly/\(key)/\(week)",
                    token: try await editor.token
                )
                #expect(published.status == .ok, "\(published.text)")
            }
            #expect(
                try await app.request(.put, "/api/content/weekly/horoscope:leo/2026-W11", token: try await luna.token)
                    .status == .forbidden
            )
            let badWeek = try await app.request(
                .put,
                "/api/content/weekly/horoscope:leo/2025-W53",
                token: try await editor.token
            )
            #expect(badWeek.status == .unprocessableContent && badWeek.text.contains("week"))

            func new(_ member: Member) async throws -> (week: String?, keys: [String]) {
                let answer = try await app.json("/api/content/new", token: try await member.token)
                return (
                    answer["week"] as? String,
                    (answer["items"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
                )
            }
            #expect(try await new(sol) == ("2026-W10", ["horoscope:aries"]))
            #expect(try await new(luna) == ("2026-W11", ["compatibility:aries-leo", "horoscope:aries"]))
            for _ in 0..<2 {  // seeing it again changes nothing
                #expect(
                    try await app.request(
                        .post,
                        "/api/content/weekly/horoscope:aries/seen",
                        token: try await luna.token
                    ).status == .ok
                )
            }
            #expect(try await new(luna) == ("2026-W11", ["compatibility:aries-leo"]))
            #expect(
                try await app.request(.post, "/api/content/weekly/horoscope:leo/seen", token: try await luna.token)
                    .status == .notFound
            )
            let badKey = try await app.request(
                .post,
                "/api/content/weekly/Horoscope%20Leo/seen",
                token: try await luna.token
            )
            #expect(badKey.status == .unprocessableContent && badKey.text.contains("key"), "\(badKey.text)")

            // Monday in Los Angeles: Sol's new week, nothing of it seen yet.
            app.clock.advance(by: 12 * 3_600)
            #expect(try await new(sol) == ("2026-W11", ["compatibility:aries-leo", "horoscope:aries"]))
        }
    }
}
