import FitCircleClient
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
            let five = try #require(try await ana.series("s5", number: 5, reps: 5).reward)
            let fiveLine = try #require(five.lines.first)
            let fiveAward = try #require(fiveLine.detail.series)
            #expect(fiveLine.reason == .series)
            #expect(fiveLine.amount == 55)
            #expect(fiveAward.repMultiplier == 1.5)
            #expect(fiveAward.seriesMultiplier == 4.0)
            #expect(fiveAward.streakMultiplier == 1.0)
            #expect(fiveLine.multiplier == 1.0)
            // The first series also unlocks "First Series" (10 points).
            #expect(five.badges.map(\.id) == ["first-series"])
            #expect(five.points == 65)

            let ten = try #require(try await ana.series("s10", number: 10, reps: 10).reward)
            let tenAward = try #require(ten.lines.first?.detail.series)
            #expect(tenAward.repMultiplier == 3.0)
            #expect(tenAward.seriesMultiplier == 8.0)
            #expect(ten.points == 110)
            #expect(ten.totalPoints == 175)

            let lines = try await ana.api.getPointsLedger().ok.body.json.items
            #expect(lines.map(\.reason) == [.series, .badge, .series])
            #expect(lines.map(\.amount) == [110, 10, 55])
            #expect(lines.reduce(0) { $0 + $1.amount } == 175)

            let stats = try await ana.points()
            #expect(stats.totalPoints == 175)
            #expect(stats.level == 2)  // level 2 from 50 points, level 3 from 200
            #expect(stats.pointsToNextLevel == 25)
            #expect(stats.today.value1.points == 175)
            #expect(stats.today.value1.pushupsCounted == 15)
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
            #expect(stats.level == level)
            #expect(stats.pushupCap == cap)
            let reward = try #require(try await ana.series("over", number: 1, reps: cap + 10).reward)
            #expect(reward.counted == cap)
            #expect(reward.excess == 10)
            try await Self.expectReplayAgrees(app)
        }
    }

    /// WEEKLY-01: "Target updates when daily goal changes" — a new daily goal on Wednesday moves this
    /// week's target (and today's goal) at once; a week already met keeps its target.
    @Test(arguments: Backend.available)
    func weekly01_theWeeksTargetFollowsADailyGoalChangedMidWeek(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let ana = try await Member.onboarded("ana@example.com", in: "UTC", app: app)
            #expect(try await ana.goal(.weekly)?.target == 250)
            app.clock.advance(by: 2 * Self.day)  // Wednesday 4 March
            #expect(try await ana.goal(.daily)?.target == 50)
            var settings = try await ana.api.getTrainingSettings().ok.body.json.value1
            settings.dailyGoal = 60
            _ = try await ana.api.updateTrainingSettings(body: .json(settings)).ok
            #expect(try await ana.goal(.weekly)?.target == 300)
            #expect(try await ana.goal(.daily)?.target == 60)
            #expect(try await ana.points().weeklyChallenge?.target == 420)
            // A day already met stays met when the goal rises: Thursday's 55 of 50, then a goal of 70.
            app.clock.advance(by: Self.day)
            try await ana.series("thu", number: 1, reps: 55)
            settings.dailyGoal = 50
            _ = try await ana.api.updateTrainingSettings(body: .json(settings)).ok
            settings.dailyGoal = 70
            _ = try await ana.api.updateTrainingSettings(body: .json(settings)).ok
            let thursday = try #require(try await ana.goal(.daily))
            #expect(thursday.target == 50 && thursday.completed, "\(thursday)")
            #expect(try await ana.goal(.weekly)?.target == 350)
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
            let ledger = try await ana.api.getPointsLedger().ok.body.json.items
            let bonus = try #require(ledger.first { $0.reason == .weeklyBonus })
            #expect(bonus.amount == 500)
            #expect(bonus.date == "2026-03-08")
            let sunday = try await ana.api.getDailyPoints(query: .init(from: "2026-03-08", to: "2026-03-08"))
            #expect(try sunday.ok.body.json.days.first?.points == 500)

            app.clock.advance(by: Self.day)  // Saturday 7 March, noon: the challenge's last day
            let saturday = try #require(try await ana.points().weeklyChallenge)
            #expect(saturday.weekStart == "2026-03-01")
            #expect(saturday.progress == 255)
            #expect(saturday.target == 350)

            app.clock.advance(by: Self.day)  // Sunday 8 March, noon
            let popup = try await ana.api.getWeeklySummary().ok.body.json
            #expect(popup.weekStart == "2026-03-02")
            #expect(popup.reps == 255)
            #expect(popup.excessReps == 25)
            #expect(popup.target == 250)
            #expect(popup.percent == 102)
            #expect(popup.reached)
            let challenge = try #require(try await ana.points().weeklyChallenge)
            #expect(challenge.weekStart == "2026-03-08")  // a new challenge this Sunday
            #expect(challenge.progress == 0)
            #expect(challenge.target == 350)

            app.clock.advance(by: Self.day)  // Monday 9 March: a new training week, the challenge's second day
            let next = try #require(try await ana.points().weeklyChallenge)
            #expect(next.weekStart == "2026-03-08")
            #expect(next.progress == 0)
            #expect(try await ana.goal(.weekly)?.actual == 0)
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
            #expect(told.first?.body == "New weekly challenge available! Check your progress.")
        }
    }

    /// The ledger, the badges and the habit times agree with a replay of the activity ledger.
    static func expectReplayAgrees(_ app: TestApp) async throws {
        #expect(try await app.engine.replay.rewardDifferences().map(\.description) == [])
        #expect(try await app.engine.replay.run() == [])
    }
}

extension Member {
    /// Records one push-up series now: the activity as the API answers it, with its `reward`.
    @discardableResult
    func series(_ id: String, number: Int, reps: Int) async throws -> Components.Schemas.Activity {
        try await self.app.recordPushups(id, series: number, reps: reps, as: self.email)
    }

    /// The `points` of `GET /api/user/stats`.
    func points() async throws -> Components.Schemas.PointsStats {
        try await self.api.getUserStats().ok.body.json.points
    }

    /// The current day's or week's push-up goal.
    func goal(_ span: Goal.Span) async throws -> Components.Schemas.GoalProgress? {
        let period =
            span == .daily
            ? try await self.api.getDailyGoals().ok.body.json : try await self.api.getWeeklyGoals().ok.body.json
        return period[.pushups]
    }

    /// Seeds the ledger with `amount` points (as a challenge payout would) so a story starts at a level.
    func seed(points amount: Int) async throws {
        let user = User.ID(
            try await self.app.devSignIn(self.email).user.id
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
