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

    static func token(_ app: TestApp, _ email: String = "ana@example.com") async throws -> String {
        try await app.devSignIn(email)["accessToken"] as! String
    }

    /// Spec 001: the training week runs from Monday 2 March 2026 to Sunday 8 March, the challenge's from
    /// Sunday 1 to Saturday 7 ("resets every Sunday"); goal 50 a day, so the weekly target is 250 and the
    /// challenge 350. 75 push-ups (the cap) each day from Monday to Saturday.
    @Test(arguments: Backend.available)
    func theWeeklyBonusAndTheWeeklyChallengeAreCreditedOnce(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            for day in 1...6 {
                try await PointsTests.series(app, "d\(day)", number: 1, reps: 75)
                if day < 6 { app.clock.advance(by: Self.day) }
            }
            // Saturday 7 March, the challenge week's last day.
            let ledger = try await app.request(.get, "/api/points/ledger?limit=200", token: try await Self.token(app))
                .jsonObject()
            let lines = try #require(ledger["items"] as? [[String: Any]])
            let bonus = lines.filter { $0["reason"] as? String == "weekly_bonus" }
            #expect(bonus.count == 1)
            #expect(bonus.first?["amount"] as? Int == 500)
            #expect(bonus.first?["date"] as? String == "2026-03-08")  // booked to Sunday (WEEKLY-03)
            #expect((bonus.first?["detail"] as? [String: Any])?["target"] as? Int == 250)
            let challenge = lines.filter { $0["reason"] as? String == "weekly_challenge" }
            #expect(challenge.count == 1)
            #expect(challenge.first?["amount"] as? Int == 200)
            #expect(challenge.first?["date"] as? String == "2026-03-06")  // the Friday the 350th push-up came

            let stats = try #require(
                try await app.request(.get, "/api/user/stats", token: try await Self.token(app)).jsonObject()["points"]
                    as? [String: Any]
            )
            let weekly = try #require(stats["weeklyChallenge"] as? [String: Any])
            #expect(weekly["title"] as? String == "Complete 350 push-ups this week")
            #expect(weekly["weekStart"] as? String == "2026-03-01")
            #expect(weekly["progress"] as? Int == 450)
            #expect(weekly["completed"] as? Bool == true)
            #expect(weekly["badge"] as? String == "Weekly Challenge 2026-03-01")
            #expect((stats["counters"] as? [String: Any])?["weekly_challenges"] as? Int == 1)

            let catalog = try await app.request(.get, "/api/badges", token: try await Self.token(app)).jsonObject()
            #expect(
                (catalog["dated"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Weekly Challenge 2026-03-01"]
            )
            let accepted = (catalog["badges"] as? [[String: Any]])?.first {
                $0["id"] as? String == "challenge-accepted"
            }
            #expect(accepted?["unlocked"] as? Bool == true)

            // Sunday the challenge starts again from zero (CHAL-01), on the training week's last day; Monday
            // is its second day.
            for expected in ["2026-03-08", "2026-03-08"] {
                app.clock.advance(by: Self.day)
                let next = try #require(
                    try await app.request(.get, "/api/user/stats", token: try await Self.token(app)).jsonObject()[
                        "points"
                    ] as? [String: Any]
                )
                #expect((next["weeklyChallenge"] as? [String: Any])?["progress"] as? Int == 0)
                #expect((next["weeklyChallenge"] as? [String: Any])?["weekStart"] as? String == expected)
            }
            try await PointsTests.expectReplayAgrees(app)
        }
    }

    @Test(arguments: Backend.available)
    func theCatalogShowsProgressHoldersAndTheShowcaseOnlyTakesUnlockedBadges(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            try await PointsTests.series(app, "s1", number: 1, reps: 40)
            let catalog = try await app.request(.get, "/api/badges", token: try await Self.token(app)).jsonObject()
            let badges = try #require(catalog["badges"] as? [[String: Any]])
            #expect(badges.count == app.engine.profile.rewards.badges.count)
            let first = try #require(badges.first { $0["id"] as? String == "first-series" })
            #expect(first["unlocked"] as? Bool == true && first["progress"] as? Double == 1)
            #expect(first["holders"] as? Double == 1)
            let thousand = try #require(badges.first { $0["id"] as? String == "thousand-pushups" })
            #expect(thousand["unlocked"] as? Bool == false)
            #expect(thousand["progress"] as? Double == 0.04)
            #expect(((thousand["requirement"] as? [[String: Any]])?.first)?["value"] as? Int == 40)

            // A second active user without badges halves the share, once the 10-minute cache has expired.
            let bob = try await Self.token(app, "bob@example.com")
            let water = try await app.request(
                .post,
                "/api/activities",
                token: bob,
                json: [
                    "clientEventId": "w1", "type": "water",
                    "occurredAt": ISO8601DateFormatter().string(from: app.clock.now), "waterMl": 250,
                ]
            )
            #expect(water.status == .created)
            let cached = try await app.request(.get, "/api/badges", token: bob).jsonObject()
            #expect(
                (cached["badges"] as? [[String: Any]])?.first { $0["id"] as? String == "first-series" }?["holders"]
                    as? Double == 1
            )
            app.clock.advance(by: 11 * 60)
            let fresh = try await app.request(.get, "/api/badges", token: try await Self.token(app, "bob@example.com"))
                .jsonObject()
            #expect(
                (fresh["badges"] as? [[String: Any]])?.first { $0["id"] as? String == "first-series" }?["holders"]
                    as? Double == 0.5
            )

            let token = try await Self.token(app)
            let locked = try await app.request(
                .put,
                "/api/badges/showcase",
                token: token,
                json: ["badgeIds": ["first-series", "thousand-pushups"]]
            )
            #expect(locked.status == .unprocessableContent)
            #expect(
                (try locked.jsonObject()["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String } == [
                    "badgeIds[1]"
                ]
            )
            let tooMany = try await app.request(
                .put,
                "/api/badges/showcase",
                token: token,
                json: ["badgeIds": ["a", "b", "c", "d"]]
            )
            #expect(tooMany.status == .unprocessableContent)
            #expect(
                try await app.request(.get, "/api/badges", token: token).jsonObject()["showcase"] as? [String] == []
            )

            let chosen = try await app.request(
                .put,
                "/api/badges/showcase",
                token: token,
                json: ["badgeIds": ["first-series"]]
            )
            #expect(chosen.status == .ok, "\(chosen.text)")
            let anaID = try #require(
                (try await app.devSignIn("ana@example.com")["user"] as? [String: Any])?["id"] as? String
            )
            let seen = try await app.request(
                .get,
                "/api/users/\(anaID)/badges",
                token: try await Self.token(app, "bob@example.com")
            ).jsonObject()
            #expect((seen["showcase"] as? [[String: Any]])?.map { $0["id"] as? String } == ["first-series"])
            #expect((seen["showcase"] as? [[String: Any]])?.first?["rarity"] as? String == "common")
            #expect(try await app.request(.get, "/api/users/nobody/badges", token: token).status == .notFound)
        }
    }

    /// `fitcircle`: 10 points a check-in, 50 a goal met, and "1 Week Warrior" with the 7th check-in in a row.
    @Test(arguments: Backend.available)
    func checkInsAndGoalsMetEarnPointsAndTheStreakMilestoneIsABadge(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            _ = try await app.onboardedUser()
            let sync = try await app.request(
                .post,
                "/api/tracking/daily",
                token: try await Self.token(app),
                json: [
                    "steps": 8000, "source": "healthkit",
                    "occurredAt": ISO8601DateFormatter().string(from: app.clock.now),
                ]
            )
            #expect(sync.status == .created || sync.status == .ok, "\(sync.text)")
            for day in 1...7 {
                let checkIn = try await app.request(
                    .post,
                    "/api/streaks/checkin",
                    token: try await Self.token(app),
                    json: ["mood": 4, "energy": 3]
                )
                #expect(checkIn.status == .created || checkIn.status == .ok, "\(checkIn.text)")
                if day == 1 {
                    // Both of today's goals (7,000 steps, the check-in) are met: read twice, credited once.
                    for _ in 1...2 {
                        #expect(
                            try await app.request(.get, "/api/goals/daily", token: try await Self.token(app)).status
                                == .ok
                        )
                    }
                }
                app.clock.advance(by: Self.day)
            }
            let ledger = try await app.request(.get, "/api/points/ledger?limit=200", token: try await Self.token(app))
                .jsonObject()
            let reasons = (ledger["items"] as? [[String: Any]] ?? []).compactMap { $0["reason"] as? String }
            #expect(reasons.filter { $0 == "check_in" }.count == 7)
            #expect(reasons.filter { $0 == "goal_met" }.count == 2)
            let badges = try await app.request(.get, "/api/badges", token: try await Self.token(app)).jsonObject()
            let warrior = (badges["badges"] as? [[String: Any]])?.first { $0["name"] as? String == "1 Week Warrior" }
            #expect(warrior?["unlocked"] as? Bool == true)
            let stats = try #require(
                try await app.request(.get, "/api/user/stats", token: try await Self.token(app)).jsonObject()["points"]
                    as? [String: Any]
            )
            #expect(stats["totalPoints"] as? Int == 7 * 10 + 2 * 50 + 50)
            #expect((stats["counters"] as? [String: Any])?["streak"] as? Int == 7)
            try await PointsTests.expectReplayAgrees(app)
        }
    }

    /// `famefit`: XP per workout from type, duration and calories, at most 1,500 a day.
    @Test(arguments: Backend.available)
    func workoutsEarnXPUpToTheDailyMaximum(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "famefit") { app async throws in
            _ = try await app.onboardedUser()
            func workout(_ id: String, minutes: Double, calories: Double) async throws -> [String: Any] {
                let response = try await app.request(
                    .post,
                    "/api/activities",
                    token: try await Self.token(app),
                    json: [
                        "clientEventId": id, "type": "workout",
                        "occurredAt": ISO8601DateFormatter().string(from: app.clock.now),
                        "workout": [
                            "type": "running", "durationSeconds": minutes * 60, "calories": calories,
                            "distanceMeters": minutes * 150,
                        ],
                    ]
                )
                #expect(response.status == .created, "\(response.text)")
                return try #require(try response.jsonObject()["reward"] as? [String: Any])
            }
            let run = try await workout("r1", minutes: 30, calories: 300)
            #expect((run["lines"] as? [[String: Any]])?.first?["amount"] as? Int == 150)  // 30 × 4 + 300 × 0.1
            let long = try await workout("r2", minutes: 600, calories: 3000)
            #expect((long["lines"] as? [[String: Any]])?.first?["amount"] as? Int == 1350)
            let stats = try #require(
                try await app.request(.get, "/api/user/stats", token: try await Self.token(app)).jsonObject()["points"]
                    as? [String: Any]
            )
            #expect(stats["unit"] as? String == "XP")
            #expect(stats["totalPoints"] as? Int == 1500 + 10)  // and "First Workout"
            try await PointsTests.expectReplayAgrees(app)
        }
    }
}
