import FitCircleClient
import FitCircleCore
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Spec 000's goals "derived from challenge targets" (F2), on circles of four weeks (Monday 2 to Sunday
/// 29 March 2026, Paris), recalculated when members join or leave; and F3's boards of weight-loss circles.
struct Spec000CircleGoalTests {
    static let zone = "Europe/Paris"

    /// A weight-loss circle: F2's weekly weight goal `(starting − target) / weeks remaining` and F1's daily
    /// pro-rata share, from the account's eighth day and within 0.1–0.3 lb (the circle's weekly share is
    /// kept as it is: F2 asks for it, F1 bounds only the day's figure); F3's boards — the weekly board the share of the week's target, the monthly board the
    /// kilograms lost this month, the all-time board the kilograms lost since joining — with a member who
    /// hides their weight shown by percentages only.
    @Test(arguments: Backend.available)
    func f1_f2_f3_weightGoalsFollowTheCircleFromDay8Within0_1To0_3LbAndItsBoardsRankEachPeriodAsTheTableSays(
        _ backend: Backend
    ) async throws {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "09:00")
            let ana = try await Member.onboarded("ana@example.com", named: "Ana", in: Self.zone, app: app)
            let bo = try await Member.onboarded("bo@example.com", named: "Bo", in: Self.zone, app: app)
            let cy = try await Member.onboarded("cy@example.com", named: "Cy", in: Self.zone, app: app)
            func goal(_ member: Member, _ span: Goal.Span) async throws -> Components.Schemas.GoalProgress? {
                let api = try await member.api
                let period =
                    span == .daily
                    ? try await api.getDailyGoals().ok.body.json : try await api.getWeeklyGoals().ok.body.json
                return period[.weight]
            }
            // Outside a weight-loss circle nobody has a weight goal (maintenance).
            #expect(try await goal(ana, .weekly) == nil)

            let lighter = Components.Schemas.FitCircleInput(
                name: "Lighter",
                metric: .weightLossPct,
                startDate: "2026-03-02",
                endDate: "2026-03-29",
                startingWeightKg: 82,
                targetWeightKg: 72
            )
            let circle = try await ana.api.createFitCircle(body: .json(lighter)).created.body.json
            let (id, code) = (circle.id, try #require(circle.joinCode))
            let bosJoin = Components.Schemas.FitCircleJoin(code: code, startingWeightKg: 100, targetWeightKg: 80)
            _ = try await bo.api.joinFitCircle(body: .json(bosJoin)).ok

            // F2: (82 − 72) / 4 weeks = 2.5 kg this week. F1: "Days 1-7: no daily goal" for weight.
            #expect(try await goal(ana, .weekly)?.target == 2.5)
            #expect(try await goal(ana, .daily) == nil)
            #expect(try await goal(bo, .weekly)?.target == 5)

            func weighIn(_ member: Member, _ kilograms: Double, _ event: String) async throws {
                try await member.record(event, .weight, weightKg: kilograms, source: .manual)
                try await member.claim(id)
            }
            func board(_ period: Components.Schemas.BoardPeriod, as member: Member) async throws
                -> Components.Schemas.Leaderboard
            {
                try await member.api.getFitCircleLeaderboard(path: .init(id: id), query: .init(period: period)).ok.body
                    .json
            }
            func values(_ board: Components.Schemas.Leaderboard) -> [String: Double?] {
                Dictionary(
                    uniqueKeysWithValues: board.rows.map {
                        ($0.displayName, $0.value)
                    }
                )
            }

            try await weighIn(ana, 81, "ana-1")
            try await weighIn(bo, 99, "bo-1")
            #expect(try await goal(ana, .weekly)?.actual == 1)
            var weekly = try await board(.weekly, as: ana)
            #expect(weekly.measure == .weeklyTargetPercent)
            // 1 of Ana's 2.5 kg is 40 %; 1 of Bo's 5 kg is 20 %.
            #expect(values(weekly) == ["Ana": 40, "Bo": 20])

            // Week 2: Ana from 81, (81 − 72) / 3 = 3 kg; Bo from 99, (99 − 80) / 3 = 6.33 kg.
            try await world.run(until: "2026-03-09", "09:00")
            #expect(try await goal(ana, .weekly)?.target == 3)
            #expect(try await goal(bo, .weekly)?.target == 6.33)
            // Day 8: a daily weight goal, a seventh of the week's (0.43 kg) bounded to F1's "-0.1 to -0.3
            // lbs": 0.13 kg.
            #expect(try await goal(ana, .daily)?.target == 0.13)
            try await weighIn(ana, 80, "ana-2")
            try await weighIn(bo, 97, "bo-2")
            weekly = try await board(.weekly, as: ana)
            #expect(values(weekly) == ["Ana": 33.3, "Bo": 31.6])
            #expect(weekly.rows.map(\.displayName) == ["Ana", "Bo"])
            // Kilograms lost this month and since joining. Bo's weight is seen by nobody but him (the default):
            // to Ana his kilograms are 15 % of his goal (3 of 20 kg), and he sees his own.
            let monthly = try await board(.monthly, as: ana)
            #expect(monthly.measure == .kgLost)
            #expect(monthly.rows.map(\.displayName) == ["Bo", "Ana"])
            #expect(values(monthly) == ["Bo": nil, "Ana": 2])
            let hidden = monthly.rows.first { $0.displayName == "Bo" }
            #expect(hidden?.percentOfGoal == 15)
            let own = try await board(.allTime, as: bo).rows.first { $0.displayName == "Bo" }
            #expect(own?.value == 3 && own?.percentOfGoal == 15)
            // Bo lets everyone see his weight: Ana sees his kilograms.
            var profile = TestApp.validProfile(timeZone: Self.zone)
            profile["displayName"] = "Bo"
            profile["visibility"] = ["age": "friends", "weight": "everyone", "height": "friends"]
            let shared = try await app.request(.put, "/api/user/profile", token: try await bo.token, json: profile)
            #expect(shared.status == .ok, "\(shared.text)")
            #expect(values(try await board(.allTime, as: ana)) == ["Bo": 3, "Ana": 2])
            let history = try await ana.api.getFitCircleLeaderboardHistory(
                path: .init(id: id),
                query: .init(period: .weekly)
            )
            let closed = try history.ok.body.json.items.first?.rows ?? []
            #expect(closed.map(\.value) == [40, 20])  // percentages stay shown

            // Wednesday: Cy joins at 90 aiming for 85 — (90 − 85) / 3 weeks = 1.67 kg this week at once; Bo
            // leaves and his weight goals end.
            try await world.run(until: "2026-03-11", "12:00")
            let cysJoin = Components.Schemas.FitCircleJoin(code: code, startingWeightKg: 90, targetWeightKg: 85)
            _ = try await cy.api.joinFitCircle(body: .json(cysJoin)).ok
            #expect(try await goal(cy, .weekly)?.target == 1.67)
            #expect(try await goal(cy, .daily)?.target == 0.13)  // a seventh, 0.24 kg, over 0.3 lb
            _ = try await bo.api.leaveFitCircle(path: .init(id: id)).noContent
            #expect(try await goal(bo, .weekly) == nil)
            #expect(try await goal(bo, .daily) == nil)
        }
    }

    /// A step circle with a goal of 280,000 steps each over its four weeks: F2's "FitCircle participants:
    /// weekly goals derived from challenge targets" (read as what is left over the weeks remaining, rounded
    /// up to 100), instead of the 50,000 default; a member who leaves is back on their own baseline.
    @Test(arguments: Backend.available)
    func f2_aStepCirclesGoalSetsItsMembersWeeklyStepsFromJoiningToLeaving(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "09:00")
            let ana = try await Member.onboarded("ana@example.com", named: "Ana", in: Self.zone, app: app)
            func weeklySteps() async throws -> Double? {
                try await ana.api.getWeeklyGoals().ok.body.json[.steps]?.target
            }
            #expect(try await weeklySteps() == 50_000)
            let refused = try await ana.api.createFitCircle(
                body: .json(.init(name: "Open", metric: .steps, stepGoal: 280_000))
            )
            #expect(try refused.unprocessableContent.body.applicationProblemJson.fields.contains("stepGoal"))
            let walkers = Components.Schemas.FitCircleInput(
                name: "Walkers",
                metric: .steps,
                startDate: "2026-03-02",
                endDate: "2026-03-29",
                stepGoal: 280_000
            )
            let created = try await ana.api.createFitCircle(body: .json(walkers)).created.body.json
            let id = created.id
            #expect(created.stepGoal == 280_000)
            #expect(try await weeklySteps() == 70_000)  // 280,000 / 4 weeks, at once

            // 60,000 claimed in week 1: week 2 asks (280,000 − 60,000) / 3 = 73,333 → 73,400.
            for day in 0..<6 {
                try await ana.sync(steps: 10_000, "day-\(day)")
                try await ana.claim(id)
                try await world.run(until: "2026-03-0\(3 + day)", "09:00")
            }
            try await world.run(until: "2026-03-09", "09:00")
            // Sunday's digest already showed that as "Next Week's Challenge".
            let anaID = User.ID(
                try await app.devSignIn(ana.email).user.id
            )
            let digest = try await app.store.read { tx in
                try await tx.notifications.list(of: anaID, type: "weekly_digest", limit: 1)
            }.first
            #expect(digest?.data["nextGoal"] == "73,400", "\(String(describing: digest?.data))")
            #expect(try await weeklySteps() == 73_400)
            _ = try await ana.api.leaveFitCircle(path: .init(id: id)).noContent
            // Back on her own baseline: day 8, 6 days of 10,000 + 10 % = 11,000 a day, × 7.
            #expect(try await weeklySteps() == 77_000)
        }
    }
}
