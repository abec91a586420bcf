import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Spec 001 (the push-up app) through the API: its point examples and cap tiers (POINTS, ANTCHEAT), and
/// its week (WEEKLY, CHAL), which runs Monday to Sunday in the user's zone. The clock starts on Monday
/// 2 March 2026 at noon UTC; the user keeps the profile's defaults (daily goal 50, UTC).
struct Spec001Tests {
    static let day: TimeInterval = 86_400

    /// POINTS-01…05: "Series 5 (5 push-ups)" earns 10 × (1.5 + 4.0) = 55, "Series 10 (10 push-ups)"
    /// 10 × (3.0 + 8.0) = 110; each line shows its multipliers, the ledger adds up to the total, and the
    /// total sets the level.
    @Test(arguments: Backend.available)
    func points01to05_theWorkedExamplesThroughTheAPIWithTheirLedgerLines(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let ana = try await Member.onboarded("ana@example.com", in: "UTC", app: app)
            let five = try #require(try await ana.series("s5", number: 5, reps: 5)["reward"] as? [String: Any])
            let fiveLine = try #require((five["lines"] as? [[String: Any]])?.first)
            let fiveAward = try #require((fiveLine["detail"] as? [String: Any])?["series"] as? [String: Any])
            #expect(fiveLine["reason"] as? String == "series")
            #expect(fiveLine["amount"] as? Int == 55)
            #expect(fiveAward["repMultiplier"] as? Double == 1.5)
            #expect(fiveAward["seriesMultiplier"] as? Double == 4.0)
            #expect(fiveAward["streakMultiplier"] as? Double == 1.0)
            #expect(fiveLine["multiplier"] as? Double == 1.0)
            // The first series also unlocks "First Series" (10 points).
            #expect((five["badges"] as? [[String: Any]])?.map { $0["id"] as? String } == ["first-series"])
            #expect(five["points"] as? Int == 65)

            let ten = try #require(try await ana.series("s10", number: 10, reps: 10)["reward"] as? [String: Any])
            let tenAward = try #require(
                ((ten["lines"] as? [[String: Any]])?.first?["detail"] as? [String: Any])?["series"] as? [String: Any]
            )
            #expect(tenAward["repMultiplier"] as? Double == 3.0)
            #expect(tenAward["seriesMultiplier"] as? Double == 8.0)
            #expect(ten["points"] as? Int == 110)
            #expect(ten["totalPoints"] as? Int == 175)

            let lines = try #require(
                try await app.json("/api/points/ledger", token: try await ana.token)["items"] as? [[String: Any]]
            )
            #expect(lines.map { $0["reason"] as? String } == ["series", "badge", "series"])
            #expect(lines.map { $0["amount"] as? Int } == [110, 10, 55])
            #expect(lines.reduce(0) { $0 + ($1["amount"] as? Int ?? 0) } == 175)

            let stats = try await ana.points()
            #expect(stats["totalPoints"] as? Int == 175)
            #expect(stats["level"] as? Int == 2)  // level 2 from 50 points, level 3 from 200
            #expect(stats["pointsToNextLevel"] as? Int == 25)
            #expect((stats["today"] as? [String: Any])?["points"] as? Int == 175)
            #expect((stats["today"] as? [String: Any])?["pushupsCounted"] as? Int == 15)
            try await Self.expectReplayAgrees(app)
        }
    }

    /// ANTCHEAT-01…02, read by the tiers of its table (the formula beside it, goal × (1 + level × 0.1),
    /// disagrees with the table; the table wins): goal × 1.5 to level 5, × 2.0 from level 6, × 2.5 from
    /// level 11; push-ups beyond the cap are tracked, not counted.
    @Test(
        arguments: Backend.available,
        [(1249, 5, 75), (1250, 6, 100), (4999, 10, 100), (5000, 11, 125)] as [(Int, Int, Int)]
    )
    func antcheat01_theCapFollowsTheTableAtEachLevelBoundary(_ backend: Backend, boundary: (Int, Int, Int)) async throws
    {
        let (points, level, cap) = boundary
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let ana = try await Member.onboarded("ana@example.com", in: "UTC", app: app)
            try await ana.seed(points: points)
            let stats = try await ana.points()
            #expect(stats["level"] as? Int == level)
            #expect(stats["pushupCap"] as? Int == cap)
            let reward = try #require(
                try await ana.series("over", number: 1, reps: cap + 10)["reward"] as? [String: Any]
            )
            #expect(reward["counted"] as? Int == cap)
            #expect(reward["excess"] as? Int == 10)
            try await Self.expectReplayAgrees(app)
        }
    }

    /// WEEKLY-01: "Target updates when daily goal changes" — a new daily goal on Wednesday moves this
    /// week's target (and today's goal) at once; a week already met keeps its target.
    @Test(arguments: Backend.available)
    func weekly01_theWeeksTargetFollowsADailyGoalChangedMidWeek(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let ana = try await Member.onboarded("ana@example.com", in: "UTC", app: app)
            #expect(try await ana.goal(.weekly)?["target"] as? Double == 250)
            app.clock.advance(by: 2 * Self.day)  // Wednesday 4 March
            #expect(try await ana.goal(.daily)?["target"] as? Double == 50)
            var settings = try await app.json("/api/settings/training", token: try await ana.token)
            settings["dailyGoal"] = 60
            settings["saved"] = nil
            let saved = try await app.request(
                .put,
                "/api/settings/training",
                token: try await ana.token,
                json: settings
            )
            #expect(saved.status == .ok, "\(saved.text)")
            #expect(try await ana.goal(.weekly)?["target"] as? Double == 300)
            #expect(try await ana.goal(.daily)?["target"] as? Double == 60)
            #expect(
                try await ana.points()["weeklyChallenge"].flatMap { $0 as? [String: Any] }?["target"] as? Int == 420
            )
            // A day already met stays met when the goal rises: Thursday's 55 of 50, then a goal of 70.
            app.clock.advance(by: Self.day)
            try await ana.series("thu", number: 1, reps: 55)
            settings["dailyGoal"] = 50
            #expect(
                try await app.request(.put, "/api/settings/training", token: try await ana.token, json: settings).status
                    == .ok
            )
            settings["dailyGoal"] = 70
            #expect(
                try await app.request(.put, "/api/settings/training", token: try await ana.token, json: settings).status
                    == .ok
            )
            let thursday = try #require(try await ana.goal(.daily))
            #expect(thursday["target"] as? Double == 50 && thursday["completed"] as? Bool == true, "\(thursday)")
            #expect(try await ana.goal(.weekly)?["target"] as? Double == 350)
        }
    }

    /// WEEKLY-02, WEEKLY-03 and CHAL-01 on one week: Monday 100 push-ups against a cap of 75 (25 tracked
    /// apart), then 60 on Tuesday, Wednesday and Thursday: 255 counted reach the 250 target on Thursday, and
    /// the +500 is booked to Sunday's total. On Sunday the popup shows this week so far, counted as the bonus
    /// counts. The challenge (350) keeps its own week, Sunday to Saturday: on Saturday it holds the week's
    /// push-ups; on Sunday it "resets" (CHAL-01), the day NOTIF-04 announces it at 08:00 — one reading in
    /// which the Monday-to-Sunday training week, the Sunday reset and the Sunday announcement all hold.
    @Test(arguments: Backend.available)
    func weekly02_03_chal01_theSundayPopupShowsTheWeekSoFar_theBonusIsBookedToSunday_theChallengeResetsThatSunday(
        _ backend: Backend
    ) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let ana = try await Member.onboarded("ana@example.com", in: "UTC", app: app)
            for (day, reps) in [100, 60, 60, 60].enumerated() {
                try await ana.series("d\(day)", number: 1, reps: reps)
                app.clock.advance(by: Self.day)
            }
            let bonus = try #require(
                (try await app.json("/api/points/ledger", token: try await ana.token)["items"] as? [[String: Any]])?
                    .first { $0["reason"] as? String == "weekly_bonus" }
            )
            #expect(bonus["amount"] as? Int == 500)
            #expect(bonus["date"] as? String == "2026-03-08")
            let sunday = try await app.json(
                "/api/points/daily?from=2026-03-08&to=2026-03-08",
                token: try await ana.token
            )
            #expect(((sunday["days"] as? [[String: Any]])?.first)?["points"] as? Int == 500)

            app.clock.advance(by: Self.day)  // Saturday 7 March, noon: the challenge's last day
            let saturday = try #require(try await ana.points()["weeklyChallenge"] as? [String: Any])
            #expect(saturday["weekStart"] as? String == "2026-03-01")
            #expect(saturday["progress"] as? Int == 255)
            #expect(saturday["target"] as? Int == 350)

            app.clock.advance(by: Self.day)  // Sunday 8 March, noon
            let popup = try await app.json("/api/goals/weekly/summary", token: try await ana.token)
            #expect(popup["weekStart"] as? String == "2026-03-02")
            #expect(popup["reps"] as? Int == 255)
            #expect(popup["excessReps"] as? Int == 25)
            #expect(popup["target"] as? Int == 250)
            #expect(popup["percent"] as? Int == 102)
            #expect(popup["reached"] as? Bool == true)
            let challenge = try #require(try await ana.points()["weeklyChallenge"] as? [String: Any])
            #expect(challenge["weekStart"] as? String == "2026-03-08")  // a new challenge this Sunday
            #expect(challenge["progress"] as? Int == 0)
            #expect(challenge["target"] as? Int == 350)

            app.clock.advance(by: Self.day)  // Monday 9 March: a new training week, the challenge's second day
            let next = try #require(try await ana.points()["weeklyChallenge"] as? [String: Any])
            #expect(next["weekStart"] as? String == "2026-03-08")
            #expect(next["progress"] as? Int == 0)
            #expect(try await ana.goal(.weekly)?["actual"] as? Double == 0)
            try await Self.expectReplayAgrees(app)
        }
    }

    /// NOTIF-04: "New weekly challenge available! Check your progress." at 08:00 on Sunday in the user's
    /// zone, once a week.
    @Test(arguments: Backend.available)
    func notif04_theNewWeeklyChallengeIsAnnouncedOnSundayAt0800(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let world = World(app, zone: "Asia/Tokyo")
            world.start(at: "2026-03-04", "12:00")
            let ken = try await Member.onboarded("ken@example.com", in: "Asia/Tokyo", app: app)
            try await world.run(until: "2026-03-15", "09:00")
            let told = try await app.notifications("new_weekly_challenge", token: try await ken.token)
            #expect(told.map { world.decided($0) } == ["2026-03-15 08:00", "2026-03-08 08:00"], "\(told)")
            #expect(told.first?["body"] as? String == "New weekly challenge available! Check your progress.")
        }
    }

    /// The ledger, the badges and the habit times agree with a replay of the activity ledger.
    static func expectReplayAgrees(_ app: TestApp) async throws {
        #expect(try await app.engine.replay.rewardDifferences().map(\.description) == [])
        #expect(try await app.engine.replay.run() == [])
    }
}

extension Member {
    /// Records one push-up series now; answers the JSON of the answer (with its `reward`).
    @discardableResult
    func series(_ id: String, number: Int, reps: Int) async throws -> [String: Any] {
        let body: [String: Any] = [
            "clientEventId": id, "type": "workout",
            "occurredAt": ISO8601DateFormatter().string(from: self.app.clock.now),
            "workout": ["type": "pushups", "durationSeconds": 60, "series": number, "reps": reps],
        ]
        let response = try await self.app.request(.post, "/api/activities", token: try await self.token, json: body)
        guard response.status == .created || response.status == .ok else {
            throw TestSetupError("the series answered \(response.status): \(response.text)")
        }
        return try response.jsonObject()
    }

    /// The `points` of `GET /api/user/stats`.
    func points() async throws -> [String: Any] {
        try #require(
            try await self.app.json("/api/user/stats", token: try await self.token)["points"] as? [String: Any]
        )
    }

    /// The current day's or week's push-up goal.
    func goal(_ span: Goal.Span) async throws -> [String: Any]? {
        let period = try await self.app.json("/api/goals/\(span.rawValue)", token: try await self.token)
        return (period["goals"] as? [[String: Any]])?.first { $0["type"] as? String == "pushups" }
    }

    /// Seeds the ledger with `amount` points (as a challenge payout would) so a story starts at a level.
    func seed(points amount: Int) async throws {
        let user = User.ID(
            try #require((try await self.app.devSignIn(self.email)["user"] as? [String: Any])?["id"] as? String)
        )
        let level = self.app.engine.profile.rewards.levels.level(for: amount)
        let now = self.app.clock.now
        try await self.app.store.transaction { tx in
            try await tx.points.append(
                [
                    PointsLine(
                        id: .init("seed"),
                        date: LocalDate(year: 2026, month: 3, day: 1)!,
                        amount: amount,
                        reason: .stakePayout,
                        sourceKey: "seed",
                        createdAt: now
                    )
                ],
                of: user
            )
            try await tx.points.save(RewardStats(totalPoints: amount, level: level), of: user, at: now)
        }
    }
}
