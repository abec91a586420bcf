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

    /// A fresh access token for the user (tokens live 15 minutes; these tests move days at a time).
    static func token(_ app: TestApp, _ email: String = "ana@example.com") async throws -> String {
        try await app.devSignIn(email)["accessToken"] as! String
    }

    static func checkIn(
        _ app: TestApp,
        _ email: String = "ana@example.com",
        body: [String: Any] = ["mood": 4, "energy": 3, "sentiment": "great"]
    )
        async throws -> TestResponse
    {
        try await app.request(.post, "/api/streaks/checkin", token: try await Self.token(app, email), json: body)
    }

    static func current(_ app: TestApp, _ email: String = "ana@example.com") async throws -> [String: Any] {
        let response = try await app.request(.get, "/api/streaks/current", token: try await Self.token(app, email))
        #expect(response.status == .ok, "\(response.text)")
        return try response.jsonObject()
    }

    static func history(_ app: TestApp, _ email: String = "ana@example.com", from: String, to: String) async throws
        -> [[String: Any]]
    {
        let response = try await app.request(
            .get,
            "/api/streaks/history?from=\(from)&to=\(to)",
            token: try await Self.token(app, email)
        )
        return try #require(try response.jsonObject()["entries"] as? [[String: Any]])
    }

    /// Spec 000, Flow 1: the first week. Monday 2 March 2026 is day 1 (Europe/Paris).
    @Test(arguments: Backend.available)
    func theFirstWeekWithAMissedDayFrozenAndTheFirstMilestone(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            for day in 1...4 {
                let response = try await Self.checkIn(app)
                #expect(response.status == .created, "day \(day): \(response.text)")
                #expect(try (response.jsonObject()["streak"] as? [String: Any])?["current"] as? Int == day)
                app.clock.advance(by: Self.day)
            }
            // Day 5 (Friday) passes without a check-in; on day 6 the freeze was applied automatically.
            app.clock.advance(by: Self.day)
            let saturday = try await Self.current(app)
            #expect(saturday["current"] as? Int == 4)
            #expect(saturday["freezesLeft"] as? Int == 0)
            let frozen = try #require((saturday["recent"] as? [[String: Any]])?.first)
            #expect(frozen["period"] as? String == "2026-03-06")
            #expect(frozen["status"] as? String == "frozen")
            #expect(frozen["reason"] as? String == "missed: a freeze was applied automatically")

            let day6 = try await Self.checkIn(app).jsonObject()
            #expect((day6["streak"] as? [String: Any])?["current"] as? Int == 5)
            let acknowledged = try #require(day6["previousDay"] as? [String: Any])
            #expect(acknowledged["date"] as? String == "2026-03-06")
            #expect(acknowledged["steps"] as? Int == 0)
            #expect(acknowledged["stepGoal"] as? Int == 7000)
            #expect(acknowledged["goalPercent"] as? Int == 0)
            #expect(acknowledged["sentiment"] as? String == "great")
            app.clock.advance(by: Self.day)
            #expect(try await (Self.checkIn(app).jsonObject()["streak"] as? [String: Any])?["current"] as? Int == 6)
            // The frozen day added nothing, so the seventh streak day is the following Monday, in a new
            // week whose freeze is back.
            app.clock.advance(by: Self.day)
            let day8 = try await Self.checkIn(app).jsonObject()
            let streak = try #require(day8["streak"] as? [String: Any])
            #expect(streak["current"] as? Int == 7)
            #expect(streak["freezesLeft"] as? Int == 1)
            #expect((day8["milestone"] as? [String: Any])?["badge"] as? String == "1 Week Warrior")
            #expect(day8["message"] as? String == "🎉 1 Week Warrior unlocked!")

            app.clock.advance(by: Self.day)
            let milestones = try await app.request(.get, "/api/streaks/milestones", token: try await Self.token(app))
                .jsonObject()
            let first = try #require((milestones["milestones"] as? [[String: Any]])?.first)
            #expect(first["badge"] as? String == "1 Week Warrior")
            #expect(first["reachedOn"] as? String == "2026-03-09")
            let ledger = try await Self.history(app, from: "2026-03-02", to: "2026-03-09")
            #expect(
                ledger.map { $0["status"] as? String } == [
                    "active", "active", "active", "active", "frozen", "active", "active", "active",
                ]
            )
            #expect(ledger.map { $0["streak"] as? Int } == [1, 2, 3, 4, 4, 5, 6, 7])
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
                #expect(try await Self.checkIn(app).status == .created)
                app.clock.advance(by: Self.day)
            }
            // Thursday is frozen, Friday missed: two days in a row, reset ("never miss twice"); Saturday adds nothing.
            app.clock.advance(by: 3 * Self.day)
            let sunday = try await Self.current(app)
            #expect(sunday["current"] as? Int == 0)
            #expect(sunday["longest"] as? Int == 3)
            let ledger = try await Self.history(app, from: "2026-03-05", to: "2026-03-07")
            #expect(ledger.map { $0["status"] as? String } == ["frozen", "reset"])
            #expect(ledger.last?["reason"] as? String == "2 days missed in a row: the 3-day streak was reset")

            let back = try await Self.checkIn(app).jsonObject()
            #expect(back["comeback"] as? Bool == true)
            #expect(back["message"] as? String == "You're back! Your streak starts again today.")
            #expect((back["streak"] as? [String: Any])?["current"] as? Int == 1)
        }
    }

    @Test(arguments: Backend.available)
    func oneCheckInADayAndARetryWithTheSameKeyIsReplayed(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            let token = try await Self.token(app)
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

            let second = try await app.request(.post, "/api/streaks/checkin", token: token, json: body)
            #expect(second.status == .conflict)
            #expect(try second.problemType() == "/problems/conflict")

            // The weight landed in the ledger with the check-in; the day shows both.
            let days = try await app.request(.get, "/api/tracking/daily?from=2026-03-02&to=2026-03-02", token: token)
                .jsonObject()
            let day = try #require((days["days"] as? [[String: Any]])?.first)
            #expect(day["weightKg"] as? Double == 61.8)
            #expect(day["checkedIn"] as? Bool == true)
            #expect(day["mood"] as? Int == 5)
            #expect(day["previousDaySentiment"] as? String == "ok")
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
            _ = try await app.onboardedUser()
            let response = try await Self.checkIn(app, body: body)
            #expect(response.status == .unprocessableContent, "\(response.text)")
            let problem = try response.jsonObject()
            let fields = (problem["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String } ?? []
            #expect(fields.contains(field), "\(response.text)")
            #expect(try await Self.current(app)["current"] as? Int == 0)
            let activities = try await app.request(.get, "/api/activities", token: try await Self.token(app))
                .jsonObject()
            #expect((activities["items"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(arguments: Backend.available)
    func yesterdayMayBeClaimedLateAndIsRepaired(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            #expect(try await Self.checkIn(app).status == .created)
            app.clock.advance(by: 2 * Self.day)
            // Wednesday: Tuesday was closed as frozen; claiming it now repairs it and gives the freeze back.
            #expect(try await Self.current(app)["freezesLeft"] as? Int == 0)
            let late = try await Self.checkIn(app, body: ["mood": 3, "energy": 3, "date": "2026-03-03"])
            #expect(late.status == .created, "\(late.text)")
            let result = try late.jsonObject()
            #expect(result["late"] as? Bool == true)
            let streak = try #require(result["streak"] as? [String: Any])
            #expect(streak["current"] as? Int == 2)
            #expect(streak["freezesLeft"] as? Int == 1)
            let ledger = try await Self.history(app, from: "2026-03-02", to: "2026-03-03")
            #expect(ledger.map { $0["status"] as? String } == ["active", "repaired"])
        }
    }

    @Test(arguments: Backend.available)
    func aFreezeAskedForCoversTheDayAndOnlyOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            let nothingToProtect = try await app.request(.post, "/api/streaks/freeze", token: try await Self.token(app))
            #expect(nothingToProtect.status == .conflict)
            #expect(try await Self.checkIn(app).status == .created)
            let counted = try await app.request(.post, "/api/streaks/freeze", token: try await Self.token(app))
            #expect(counted.status == .conflict)

            app.clock.advance(by: Self.day)
            let frozen = try await app.request(.post, "/api/streaks/freeze", token: try await Self.token(app))
            #expect(frozen.status == .ok, "\(frozen.text)")
            let summary = try frozen.jsonObject()
            #expect(summary["freezeActive"] as? Bool == true)
            #expect(summary["freezesLeft"] as? Int == 0)
            #expect(
                try await app.request(.post, "/api/streaks/freeze", token: try await Self.token(app)).status
                    == .conflict
            )

            app.clock.advance(by: Self.day)
            let ledger = try await Self.history(app, from: "2026-03-03", to: "2026-03-03")
            #expect(ledger.first?["status"] as? String == "frozen")
            #expect(ledger.first?["reason"] as? String == "freeze used on request")
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
            let kiri = try await Self.checkIn(app, "kiri@example.com").jsonObject()
            let pago = try await Self.checkIn(app, "pago@example.com").jsonObject()
            #expect(kiri["date"] as? String == "2026-03-05")
            #expect(pago["date"] as? String == "2026-03-04")
            // A day later both check in again: each has a two-day streak on their own dates.
            app.clock.advance(by: Self.day)
            #expect(
                try await (Self.checkIn(app, "kiri@example.com").jsonObject()["streak"] as? [String: Any])?["current"]
                    as? Int == 2
            )
            #expect(
                try await (Self.checkIn(app, "pago@example.com").jsonObject()["streak"] as? [String: Any])?["current"]
                    as? Int == 2
            )
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
            #expect(try await Self.checkIn(app).status == .created)
            app.clock.advance(by: Self.day)
            #expect(try await Self.checkIn(app).status == .created)
            // Sunday 8 (23 hours long) missed; Monday 9 checked in at 20:00 (UTC−4); Tuesday 10 missed; seen on
            // Wednesday 11 at 00:30.
            app.clock.set(Date(timeIntervalSince1970: 1_773_100_800))
            #expect(try await Self.checkIn(app).status == .created)
            app.clock.set(Date(timeIntervalSince1970: 1_773_203_400))
            let wednesday = try await Self.current(app)
            #expect(wednesday["current"] as? Int == 3)
            #expect(wednesday["periodStart"] as? String == "2026-03-11")
            let ledger = try await Self.history(app, from: "2026-03-08", to: "2026-03-10")
            // Sunday used the first week's freeze; Tuesday is in a new week with its own.
            #expect(ledger.map { $0["status"] as? String } == ["frozen", "active", "frozen"])
            #expect(wednesday["freezesLeft"] as? Int == 0)
            #expect(wednesday["freezesRenewOn"] as? String == "2026-03-16")
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
                    #expect(try await Self.checkIn(app, "often@example.com").status == .created)
                    #expect(try await Self.checkIn(app, "rarely@example.com").status == .created)
                }
                _ = try await Self.current(app, "often@example.com")
                app.clock.advance(by: Self.day)
            }
            let often = try await Self.history(app, "often@example.com", from: "2026-03-01", to: "2026-03-31")
            let rarely = try await Self.history(app, "rarely@example.com", from: "2026-03-01", to: "2026-03-31")
            #expect(often.count > 10)
            #expect(
                often.map { "\($0["period"]!) \($0["status"]!) \($0["streak"]!)" }
                    == rarely.map { "\($0["period"]!) \($0["status"]!) \($0["streak"]!)" }
            )
        }
    }
}
