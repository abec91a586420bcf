import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// The check-in streak through the HTTP API, day by day on the injected clock.
struct StreakCheckInTests {
    static let day: TimeInterval = 86_400
    typealias CheckIn = Components.Schemas.CheckInRequest

    static func checkIn(
        _ app: TestApp,
        _ email: String = "ana@example.com",
        _ body: CheckIn = CheckIn(mood: 4, energy: 3, sentiment: .great)
    ) async throws -> Operations.CheckIn.Output {
        try await app.api(as: email).checkIn(body: .json(body))
    }

    static func current(_ app: TestApp, _ email: String = "ana@example.com") async throws
        -> Components.Schemas.StreakSummary
    {
        try await app.api(as: email).getCurrentStreak().ok.body.json
    }

    static func history(_ app: TestApp, _ email: String = "ana@example.com", from: String, to: String) async throws
        -> [Components.Schemas.StreakEntry]
    {
        try await app.api(as: email).getStreakHistory(query: .init(from: from, to: to)).ok.body.json.entries
    }

    /// Spec 000, Flow 1: the first week. Monday 2 March 2026 is day 1 (Europe/Paris).
    @Test(arguments: Backend.available)
    func theFirstWeekWithAMissedDayFrozenAndTheFirstMilestone(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            for day in 1...4 {
                #expect(try await Self.checkIn(app).created.body.json.streak.current == day, "day \(day)")
                app.clock.advance(by: Self.day)
            }
            // Day 5 (Friday) passes without a check-in; on day 6 the freeze was applied automatically.
            app.clock.advance(by: Self.day)
            let saturday = try await Self.current(app)
            #expect(saturday.current == 4)
            #expect(saturday.freezesLeft == 0)
            let frozen = try #require(saturday.recent.first)
            #expect(frozen.period == "2026-03-06")
            #expect(frozen.status == .frozen)
            #expect(frozen.reason == "missed: a freeze was applied automatically")

            let day6 = try await Self.checkIn(app).created.body.json
            #expect(day6.streak.current == 5)
            let acknowledged = day6.previousDay
            #expect(acknowledged.date == "2026-03-06")
            #expect(acknowledged.steps == 0)
            #expect(acknowledged.stepGoal == 7000)
            #expect(acknowledged.goalPercent == 0)
            #expect(acknowledged.sentiment == .great)
            app.clock.advance(by: Self.day)
            #expect(try await Self.checkIn(app).created.body.json.streak.current == 6)
            // The frozen day added nothing, so the seventh streak day is the following Monday, in a new
            // week whose freeze is back.
            app.clock.advance(by: Self.day)
            let day8 = try await Self.checkIn(app).created.body.json
            #expect(day8.streak.current == 7)
            #expect(day8.streak.freezesLeft == 1)
            #expect(day8.milestone?.badge == "1 Week Warrior")
            #expect(day8.message == "🎉 1 Week Warrior unlocked!")

            app.clock.advance(by: Self.day)
            let milestones = try await app.api(as: "ana@example.com").getStreakMilestones().ok.body.json.milestones
            let first = try #require(milestones.first)
            #expect(first.badge == "1 Week Warrior")
            #expect(first.reachedOn == "2026-03-09")
            let ledger = try await Self.history(app, from: "2026-03-02", to: "2026-03-09")
            #expect(
                ledger.map(\.status.rawValue) == [
                    "active", "active", "active", "active", "frozen", "active", "active", "active",
                ]
            )
            #expect(ledger.map(\.streak) == [1, 2, 3, 4, 4, 5, 6, 7])
            #expect(try await app.engine.replay.run() == [])
        }
    }

    @Test(arguments: Backend.available)
    func twoMissedDaysInARowResetEvenWhenAFreezeCoveredTheFirstAndTheNextCheckInSaysYoureBack(_ backend: Backend)
        async throws
    {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            for _ in 1...3 {
                _ = try await Self.checkIn(app).created
                app.clock.advance(by: Self.day)
            }
            // Thursday is frozen, Friday missed: two days in a row, reset ("never miss twice"); Saturday adds nothing.
            app.clock.advance(by: 3 * Self.day)
            let sunday = try await Self.current(app)
            #expect(sunday.current == 0)
            #expect(sunday.longest == 3)
            let ledger = try await Self.history(app, from: "2026-03-05", to: "2026-03-07")
            #expect(ledger.map(\.status) == [.frozen, .reset])
            #expect(ledger.last?.reason == "2 days missed in a row: the 3-day streak was reset")

            let back = try await Self.checkIn(app).created.body.json
            #expect(back.comeback)
            #expect(back.message == "You're back! Your streak starts again today.")
            #expect(back.streak.current == 1)
        }
    }

    @Test(arguments: Backend.available)
    func oneCheckInADayAndARetryWithTheSameKeyIsReplayed(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            // Raw requests: the replay is compared byte for byte and its header is not in the typed answer.
            let body: [String: Any] = ["mood": 5, "energy": 4, "sentiment": "ok", "weightKg": 61.8]
            let first = try await app.request(
                .post,
                "/api/streaks/checkin",
                token: token,
                json: body,
                headers: [HTTPField.Name("Idempotency-Key")!: "c-1"]
            )
            #expect(first.status == .created)
            let retry = try await app.request(
                .post,
                "/api/streaks/checkin",
                token: token,
                json: body,
                headers: [HTTPField.Name("Idempotency-Key")!: "c-1"]
            )
            #expect(retry.status == .created)
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(retry.text == first.text)

            let second = try await app.api(token).checkIn(
                body: .json(.init(mood: 5, energy: 4, sentiment: .ok, weightKg: 61.8))
            )
            #expect(try second.conflict.body.applicationProblemJson._type == "/problems/already-checked-in")

            // The weight landed in the ledger with the check-in; the day shows both.
            let days = try await app.api(token).listDailyTotals(query: .init(from: "2026-03-02", to: "2026-03-02"))
            let day = try #require(try days.ok.body.json.days.first)
            #expect(day.weightKg == 61.8)
            #expect(day.checkedIn)
            #expect(day.mood == 5)
            #expect(day.previousDaySentiment == .ok)
            #expect(try await app.engine.replay.run() == [])
        }
    }

    @Test(
        arguments: Backend.available,
        [
            (["mood": 0, "energy": 3] as [String: any Sendable], "mood"),
            (["mood": 6, "energy": 3], "mood"),
            (["mood": 3, "energy": 9], "energy"),
            (["mood": 3, "energy": 3, "sentiment": "meh"], "sentiment"),
            (["mood": 3, "energy": 3, "date": "2026-03-03"], "date"),
            (["mood": 3, "energy": 3, "date": "2026-02-27"], "date"),
            (["mood": 3, "energy": 3, "weightKg": 4], "weightKg"),
        ]
    )
    func badCheckInsAreRefusedNamingTheFieldAndChangeNothing(_ backend: Backend, bad: ([String: any Sendable], String))
        async throws
    {
        let (body, field) = bad
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            // A raw request: some of these bodies (an unknown sentiment) cannot be written with the typed client.
            let response = try await app.request(.post, "/api/streaks/checkin", token: token, json: body)
            #expect(response.status == .unprocessableContent, "\(response.text)")
            #expect(try response.problem().fields.contains(field), "\(response.text)")
            #expect(try await Self.current(app).current == 0)
            #expect(try await app.api(token).listActivities().ok.body.json.items.isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func yesterdayMayBeClaimedLateAndIsRepaired(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            _ = try await Self.checkIn(app).created
            app.clock.advance(by: 2 * Self.day)
            // Wednesday: Tuesday was closed as frozen; claiming it now repairs it and gives the freeze back.
            #expect(try await Self.current(app).freezesLeft == 0)
            let late = try await Self.checkIn(app, "ana@example.com", CheckIn(mood: 3, energy: 3, date: "2026-03-03"))
                .created.body.json
            #expect(late.late)
            #expect(late.streak.current == 2)
            #expect(late.streak.freezesLeft == 1)
            let ledger = try await Self.history(app, from: "2026-03-02", to: "2026-03-03")
            #expect(ledger.map(\.status) == [.active, .repaired])
        }
    }

    @Test(arguments: Backend.available)
    func aFreezeAskedForCoversTheDayAndOnlyOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            let freeze = { try await app.api(as: "ana@example.com").freezeStreak() }
            _ = try await freeze().conflict
            _ = try await Self.checkIn(app).created
            // Today already counts: nothing to freeze.
            _ = try await freeze().conflict

            app.clock.advance(by: Self.day)
            let summary = try await freeze().ok.body.json
            #expect(summary.freezeActive)
            #expect(summary.freezesLeft == 0)
            _ = try await freeze().conflict

            app.clock.advance(by: Self.day)
            let ledger = try await Self.history(app, from: "2026-03-03", to: "2026-03-03")
            #expect(ledger.first?.status == .frozen)
            #expect(ledger.first?.reason == "freeze used on request")
        }
    }

    /// The same instant is Thursday in Kiritimati (UTC+14) and Wednesday in Pago Pago (UTC−11).
    @Test(arguments: Backend.available)
    func usersFarApartCheckInOnTheirOwnDates(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser("kiri@example.com", timeZone: "Pacific/Kiritimati")
            _ = try await app.onboardedUser("pago@example.com", timeZone: "Pacific/Pago_Pago")
            // 2026-03-04 11:00 UTC: Thursday 01:00 in Kiritimati, Wednesday 00:00 in Pago Pago.
            app.clock.set(Date(timeIntervalSince1970: 1_772_622_000))
            let kiri = try await Self.checkIn(app, "kiri@example.com").created.body.json
            let pago = try await Self.checkIn(app, "pago@example.com").created.body.json
            #expect(kiri.date == "2026-03-05")
            #expect(pago.date == "2026-03-04")
            // A day later both check in again: each has a two-day streak on their own dates.
            app.clock.advance(by: Self.day)
            #expect(try await Self.checkIn(app, "kiri@example.com").created.body.json.streak.current == 2)
            #expect(try await Self.checkIn(app, "pago@example.com").created.body.json.streak.current == 2)
            #expect(try await Self.history(app, "kiri@example.com", from: "2026-03-05", to: "2026-03-05").count == 1)
            #expect(try await Self.history(app, "pago@example.com", from: "2026-03-04", to: "2026-03-04").count == 1)
        }
    }

    /// America/New_York springs forward on Sunday 8 March 2026; the week starts on Monday in the user's zone.
    @Test(arguments: Backend.available)
    func theFreezeAllowanceRenewsAtTheUsersOwnWeekStartAcrossDST(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser(timeZone: "America/New_York")
            // Friday 6 and Saturday 7 March, 20:00 in New York (UTC−5).
            app.clock.set(Date(timeIntervalSince1970: 1_772_845_200))
            _ = try await Self.checkIn(app).created
            app.clock.advance(by: Self.day)
            _ = try await Self.checkIn(app).created
            // Sunday 8 (23 hours long) missed; Monday 9 checked in at 20:00 (UTC−4); Tuesday 10 missed; seen on
            // Wednesday 11 at 00:30.
            app.clock.set(Date(timeIntervalSince1970: 1_773_100_800))
            _ = try await Self.checkIn(app).created
            app.clock.set(Date(timeIntervalSince1970: 1_773_203_400))
            let wednesday = try await Self.current(app)
            #expect(wednesday.current == 3)
            #expect(wednesday.periodStart == "2026-03-11")
            let ledger = try await Self.history(app, from: "2026-03-08", to: "2026-03-10")
            // Sunday used the first week's freeze; Tuesday is in a new week with its own.
            #expect(ledger.map(\.status) == [.frozen, .active, .frozen])
            #expect(wednesday.freezesLeft == 0)
            #expect(wednesday.freezesRenewOn == "2026-03-16")
        }
    }

    /// Closing days on every read or once at the end gives the same ledger.
    @Test(arguments: Backend.available)
    func lazyAndFrequentClosingGiveTheSameLedger(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser("often@example.com")
            _ = try await app.onboardedUser("rarely@example.com")
            var random = SeededRandom(seed: 7)
            for _ in 0..<24 {
                if Bool.random(using: &random) || Bool.random(using: &random) {
                    _ = try await Self.checkIn(app, "often@example.com").created
                    _ = try await Self.checkIn(app, "rarely@example.com").created
                }
                _ = try await Self.current(app, "often@example.com")
                app.clock.advance(by: Self.day)
            }
            let often = try await Self.history(app, "often@example.com", from: "2026-03-01", to: "2026-03-31")
            let rarely = try await Self.history(app, "rarely@example.com", from: "2026-03-01", to: "2026-03-31")
            #expect(often.count > 10)
            #expect(often == rarely)
        }
    }
}
