import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// The weekly bonus and challenge (spec 001, WEEKLY-03, CHAL-01…02), the badge catalog and showcase
/// (spec 002, section 4), and the points of the other profiles (check-ins, goals met, workout XP).
struct BadgesAndWeeklyRewardsTests {
    static let day: TimeInterval = 86_400

    static func api(_ app: TestApp, _ email: String = "ana@example.com") async throws -> Client {
        try await app.api(as: email)
    }

    /// Spec 001: the training week runs from Monday 2 March 2026 to Sunday 8 March, the challenge's from
    /// Sunday 1 to Saturday 7 ("resets every Sunday"); goal 50 a day, so the weekly target is 250 and the
    /// challenge 350. 75 push-ups (the cap) each day from Monday to Saturday.
    @Test(arguments: Backend.available)
    func theWeeklyBonusAndTheWeeklyChallengeAreCreditedOnce(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            for day in 1...6 {
                try await app.recordPushups("d\(day)", series: 1, reps: 75)
                if day < 6 { app.clock.advance(by: Self.day) }
            }
            // Saturday 7 March, the challenge week's last day.
            let lines = try await Self.api(app).getPointsLedger(query: .init(limit: 200)).ok.body.json.items
            let bonus = lines.filter { $0.reason == .weeklyBonus }
            #expect(bonus.count == 1)
            #expect(bonus.first?.amount == 500)
            #expect(bonus.first?.date == "2026-03-08")  // booked to Sunday (WEEKLY-03)
            #expect(bonus.first?.detail.target == 250)
            let challenge = lines.filter { $0.reason == .weeklyChallenge }
            #expect(challenge.count == 1)
            #expect(challenge.first?.amount == 200)
            #expect(challenge.first?.date == "2026-03-06")  // the Friday the 350th push-up came

            let stats = try await Self.api(app).getUserStats().ok.body.json.points
            let weekly = try #require(stats.weeklyChallenge)
            #expect(weekly.title == "Complete 350 push-ups this week")
            #expect(weekly.weekStart == "2026-03-01")
            #expect(weekly.progress == 450)
            #expect(weekly.completed)
            #expect(weekly.badge == "Weekly Challenge 2026-03-01")
            #expect(stats.counters.additionalProperties["weekly_challenges"] == 1)

            let catalog = try await Self.api(app).getBadges().ok.body.json
            #expect(catalog.dated.map(\.name) == ["Weekly Challenge 2026-03-01"])
            #expect(catalog.badges.first { $0.id == "challenge-accepted" }?.unlocked == true)

            // Sunday the challenge starts again from zero (CHAL-01), on the training week's last day; Monday
            // is its second day.
            for expected in ["2026-03-08", "2026-03-08"] {
                app.clock.advance(by: Self.day)
                let next = try await Self.api(app).getUserStats().ok.body.json.points
                #expect(next.weeklyChallenge?.progress == 0)
                #expect(next.weeklyChallenge?.weekStart == expected)
            }
            #expect(try await app.replayDifferences() == [])
        }
    }

    @Test(arguments: Backend.available)
    func theCatalogShowsProgressHoldersAndTheShowcaseOnlyTakesUnlockedBadges(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            try await app.recordPushups("s1", series: 1, reps: 40)
            let badges = try await Self.api(app).getBadges().ok.body.json.badges
            #expect(badges.count == app.engine.profile.rewards.badges.count)
            let first = try #require(badges.first { $0.id == "first-series" })
            #expect(first.unlocked && first.progress == 1)
            #expect(first.holders == 1)
            let thousand = try #require(badges.first { $0.id == "thousand-pushups" })
            #expect(!thousand.unlocked)
            #expect(thousand.progress == 0.04)
            #expect(thousand.requirement.first?.value == 40)

            // A second active user without badges halves the share, once the 10-minute cache has expired.
            _ = try await app.record(
                .init(clientEventId: "w1", _type: .water, occurredAt: app.clock.now, waterMl: 250),
                as: "bob@example.com"
            )
            let cached = try await Self.api(app, "bob@example.com").getBadges().ok.body.json
            #expect(cached.badges.first { $0.id == "first-series" }?.holders == 1)
            app.clock.advance(by: 11 * 60)
            let fresh = try await Self.api(app, "bob@example.com").getBadges().ok.body.json
            #expect(fresh.badges.first { $0.id == "first-series" }?.holders == 0.5)

            let ana = try await Self.api(app)
            let locked = try await ana.updateBadgeShowcase(
                body: .json(.init(badgeIds: ["first-series", "thousand-pushups"]))
            )
            #expect(try locked.unprocessableContent.body.applicationProblemJson.fields == ["badgeIds[1]"])
            let tooMany = try await ana.updateBadgeShowcase(body: .json(.init(badgeIds: ["a", "b", "c", "d"])))
            _ = try tooMany.unprocessableContent
            #expect(try await ana.getBadges().ok.body.json.showcase == [])

            _ = try await ana.updateBadgeShowcase(body: .json(.init(badgeIds: ["first-series"]))).ok
            let anaID = try await app.api().signInForDevelopment(body: .json(.init(email: "ana@example.com"))).ok
                .body.json.user.id
            let seen = try await Self.api(app, "bob@example.com").getUserBadges(path: .init(id: anaID)).ok.body.json
            #expect(seen.showcase.map(\.id) == ["first-series"])
            #expect(seen.showcase.first?.rarity == "common")
            _ = try await ana.getUserBadges(path: .init(id: "nobody")).notFound
        }
    }

    /// `fitcircle`: 10 points a check-in, 50 a goal met, and "1 Week Warrior" with the 7th check-in in a row.
    @Test(arguments: Backend.available)
    func checkInsAndGoalsMetEarnPointsAndTheStreakMilestoneIsABadge(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            let sync = Components.Schemas.DailySync(source: .healthkit, occurredAt: app.clock.now, steps: 8000)
            _ = try await Self.api(app).syncDailyTotals(body: .json(sync)).ok
            for day in 1...7 {
                _ = try await Self.api(app).checkIn(body: .json(.init(mood: 4, energy: 3))).created
                if day == 1 {
                    // Both of today's goals (7,000 steps, the check-in) are met: read twice, credited once.
                    for _ in 1...2 { _ = try await Self.api(app).getDailyGoals().ok }
                }
                app.clock.advance(by: Self.day)
            }
            let reasons = try await Self.api(app).getPointsLedger(query: .init(limit: 200)).ok.body.json.items
                .map(\.reason)
            #expect(reasons.filter { $0 == .checkIn }.count == 7)
            #expect(reasons.filter { $0 == .goalMet }.count == 2)
            let badges = try await Self.api(app).getBadges().ok.body.json.badges
            #expect(badges.first { $0.name == "1 Week Warrior" }?.unlocked == true)
            let stats = try await Self.api(app).getUserStats().ok.body.json.points
            #expect(stats.totalPoints == 7 * 10 + 2 * 50 + 50)
            #expect(stats.counters.additionalProperties["streak"] == 7)
            #expect(try await app.replayDifferences() == [])
        }
    }

    /// `famefit`: XP per workout from type, duration and calories, at most 1,500 a day.
    @Test(arguments: Backend.available)
    func workoutsEarnXPUpToTheDailyMaximum(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "famefit") { app async throws in
            _ = try await app.onboardedUser()
            func workout(_ id: String, minutes: Double, calories: Double) async throws -> Components.Schemas.Reward {
                let run = Components.Schemas.WorkoutInput(
                    _type: .running,
                    durationSeconds: minutes * 60,
                    distanceMeters: minutes * 150,
                    calories: calories
                )
                let input = Components.Schemas.ActivityInput(
                    clientEventId: id,
                    _type: .workout,
                    occurredAt: app.clock.now,
                    workout: run
                )
                return try #require(try await Self.api(app).recordActivity(body: .json(input)).created.body.json.reward)
            }
            let run = try await workout("r1", minutes: 30, calories: 300)
            #expect(run.lines.first?.amount == 150)  // 30 × 4 + 300 × 0.1
            let long = try await workout("r2", minutes: 600, calories: 3000)
            #expect(long.lines.first?.amount == 1350)
            let stats = try await Self.api(app).getUserStats().ok.body.json.points
            #expect(stats.unit == "XP")
            #expect(stats.totalPoints == 1500 + 10)  // and "First Workout"
            #expect(try await app.replayDifferences() == [])
        }
    }
}
