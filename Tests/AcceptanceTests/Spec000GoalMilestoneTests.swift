import FitCircleClient
import FitCircleTesting
import Foundation
import Testing

/// Spec 000, Features 6 and 7: a member of a circle with a goal (a weight-loss circle: their own target in
/// it) hears at 25, 50, 75 and 100 % of it by push (required), and by email at 50 and 100 %: "🎉 Halfway
/// there! You're 50% to your weight loss goal." A weight that jumps past two thresholds tells the higher one.
struct Spec000GoalMilestoneTests {
    static let zone = "Europe/Paris"

    @Test(arguments: Backend.available)
    func f6_f7_weightLossMilestonesAt25_50_75_100ByPushAndAt50_100ByEmail(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "09:00")
            let ana = try await Member.onboarded("ana@example.com", in: Self.zone, app: app)  // 62.5 kg
            let circle = try await app.request(
                .post,
                "/api/fitcircles",
                token: try await ana.token,
                json: ["name": "Lighter", "metric": "weight_loss_pct", "targetWeightKg": 58.5]
            ).decoded(as: Components.Schemas.FitCircle.self)
            let id = circle.id

            // 62.5 → 58.5 kg: 4 kg to lose. 61.5 is 25 %, 60.0 is 62 % (past 50), 59.4 is 77 %, 58.4 is past 100 %.
            for (day, weight) in [(2, 62.0), (3, 61.5), (4, 60.0), (5, 59.9), (6, 59.4), (7, 58.4)] {
                try await world.run(until: String(format: "2026-03-%02d", day), "12:00")
                try await ana.record("w\(day)", .weight, weightKg: weight)
                try await ana.claim(id)
            }
            try await world.run(until: "2026-03-07", "12:15")

            let pushes = try await app.notifications("challenge_milestone", token: try await ana.token).reversed()
                .compactMap { $0.body }
            #expect(
                pushes == [
                    "🎉 A quarter of the way! You're 25% to your weight loss goal.",
                    "🎉 Halfway there! You're 50% to your weight loss goal.",
                    "🎉 Three quarters there! You're 75% to your weight loss goal.",
                    "🎉 Goal reached! You're 100% to your weight loss goal.",
                ]
            )
            let emails = try await app.notifications("challenge_milestone_email", token: try await ana.token).reversed()
            #expect(
                emails.compactMap { $0.body } == [
                    "🎉 Halfway there! You're 50% to your weight loss goal.",
                    "🎉 Goal reached! You're 100% to your weight loss goal.",
                ]
            )
            #expect(
                emails.allSatisfy { $0.channels == [.email] && $0.status.rawValue == "sent" }
            )
        }
    }

    /// The same for a step circle with a goal over the competition: its members' claimed steps against it.
    /// And F5's "Leaderboard Position Change: rank changes ±3": a member who climbs three places hears it.
    @Test(arguments: Backend.available)
    func f6_f7_stepGoalMilestonesByPushAndEmail_andF5_aClimbOfThreePlacesIsPushed(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "09:00")
            let ana = try await Member.onboarded("ana@example.com", named: "Ana", in: Self.zone, app: app)
            let circle = try await app.request(
                .post,
                "/api/fitcircles",
                token: try await ana.token,
                json: [
                    "name": "Spring Steps", "metric": "steps", "startDate": "2026-03-02", "endDate": "2026-03-29",
                    "stepGoal": 40_000,
                ]
            ).decoded(as: Components.Schemas.FitCircle.self)
            let id = circle.id
            var mates: [Member] = []
            for name in ["Bo", "Cy", "Di"] {
                let mate = try await Member.onboarded(
                    "\(name.lowercased())@example.com",
                    named: name,
                    in: Self.zone,
                    app: app
                )
                #expect(
                    try await app.request(
                        .post,
                        "/api/fitcircles/join",
                        token: try await mate.token,
                        json: ["code": try #require(circle.joinCode)]
                    ).status == .ok
                )
                mates.append(mate)
            }
            // Monday: the mates claim 9,000, 8,000 and 7,000; Ana 6,000 (15 % of 40,000: no milestone), 4th.
            for (mate, steps) in zip(mates, [9_000, 8_000, 7_000]) {
                try await mate.sync(steps: steps, "\(mate.email)-mon")
                try await mate.claim(id)
            }
            try await ana.sync(steps: 6_000, "ana-mon")
            try await ana.claim(id)
            // Tuesday: Ana's 12,000 make 18,000 (45 %: a quarter of the way) and take her from 4th to 1st.
            try await world.run(until: "2026-03-03", "12:00")
            try await ana.sync(steps: 12_000, "ana-tue")
            try await ana.claim(id)
            // Wednesday 27,000 (67 %: halfway, 75 never told on its own), Thursday 40,000: the goal.
            try await world.run(until: "2026-03-04", "12:00")
            try await ana.sync(steps: 9_000, "ana-wed")
            try await ana.claim(id)
            try await world.run(until: "2026-03-05", "12:00")
            try await ana.sync(steps: 13_000, "ana-thu")
            try await ana.claim(id)
            try await world.run(until: "2026-03-05", "12:15")

            let pushes = try await app.notifications("challenge_milestone", token: try await ana.token).reversed()
                .compactMap { $0.body }
            #expect(
                pushes == [
                    "🎉 A quarter of the way! You're 25% to your step goal in 'Spring Steps'.",
                    "🎉 Halfway there! You're 50% to your step goal in 'Spring Steps'.",
                    "🎉 Goal reached! You're 100% to your step goal in 'Spring Steps'.",
                ]
            )
            let emails = try await app.notifications("challenge_milestone_email", token: try await ana.token).reversed()
            #expect(
                emails.compactMap { $0.body } == [
                    "🎉 Halfway there! You're 50% to your step goal in 'Spring Steps'.",
                    "🎉 Goal reached! You're 100% to your step goal in 'Spring Steps'.",
                ]
            )
            let climbs = try await app.notifications("leaderboard_change", token: try await ana.token).compactMap {
                $0.body
            }
            #expect(climbs == ["📈 You moved up to #1 in 'Spring Steps'! 🏆"])
        }
    }
}
