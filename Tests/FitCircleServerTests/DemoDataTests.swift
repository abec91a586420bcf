import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import Testing

/// `fitcircle serve --demo`: the demo accounts are seeded once, through the use cases, and agree with replay.
struct DemoDataTests {
    @Test(arguments: Backend.available, ["fitcircle", "pushups"])
    func theDemoIsSeededOnceAndIsWhatItsEventsMake(_ backend: Backend, profile: String) async throws {
        try await withTestApp(backend, profile: profile) { app async throws in
            #expect(try await DemoData.seed(app.engine, now: app.clock.now))
            #expect(try await DemoData.seed(app.engine, now: app.clock.now) == false)
            let token = try await app.devSignIn(DemoData.accounts[0].email).accessToken
            let days = try await app.request(.get, "/api/tracking/daily?from=2026-02-10&to=2026-03-02", token: token)
                .jsonObject()
            #expect((days["days"] as? [[String: Any]])?.count == 21)
            let streak = try await app.request(.get, "/api/streaks/current", token: token).jsonObject()
            // Ana missed two days in a row last week (the demo's history): her streak started again after.
            #expect(profile != "fitcircle" || (2...7).contains(streak["current"] as? Int ?? 0), "\(streak)")
            let stats = try #require(
                try await app.request(.get, "/api/user/stats", token: token).jsonObject()["points"] as? [String: Any]
            )
            #expect((stats["totalPoints"] as? Int ?? 0) > 0)
            // The demo circle: three members on the board, Chloé (the most steps today) first.
            let circles = try await app.request(.get, "/api/fitcircles", token: token).jsonObject()
            let circle = try #require((circles["items"] as? [[String: Any]])?.first?["id"] as? String)
            let board = try await app.request(.get, "/api/fitcircles/\(circle)/leaderboard?period=daily", token: token)
                .jsonObject()
            #expect(
                (board["rows"] as? [[String: Any]])?.compactMap { $0["displayName"] as? String } == [
                    "Chloé", "Ben", "Ana",
                ]
            )
            let feed = try await app.request(.get, "/api/fitcircles/\(circle)/feed", token: token).jsonObject()
            let cheered = (feed["items"] as? [[String: Any]] ?? []).filter { ($0["encouragements"] as? Int ?? 0) > 0 }
            #expect(cheered.map { $0["actorName"] as? String } == ["Chloé"])
            // Friends: Ben; Chloé's request waits for Ana; Ben's 🔥 on one of Ana's runs.
            let friends =
                try await app.request(.get, "/api/friends", token: token).jsonObject()["items"] as? [[String: Any]]
            #expect(friends?.map { $0["displayName"] as? String } == ["Ben"])
            let requests = try await app.request(.get, "/api/friends/requests", token: token).jsonObject()
            #expect((requests["incoming"] as? [[String: Any]])?.map { $0["displayName"] as? String } == ["Chloé"])
            let runs =
                try await app.request(.get, "/api/feed?type=running&limit=100", token: token).jsonObject()["items"]
                as? [[String: Any]] ?? []
            #expect(
                runs.filter { ($0["reactions"] as? [String: Any])?["counts"] as? [String: Int] == ["🔥": 1] }.count == 1
            )
            // The challenge under way: Ana's 6 km ahead of Ben's 4.5, Chloé invited.
            let challenges =
                try await app.request(.get, "/api/competitions", token: token).jsonObject()["items"] as? [[String: Any]]
                ?? []
            let challenge = try #require(challenges.first { $0["name"] as? String == "Demo 10K week" })
            #expect(challenge["status"] as? String == "active")
            let standings = try await app.request(
                .get,
                "/api/competitions/\(challenge["id"] as! String)/leaderboard",
                token: token
            ).jsonObject()
            #expect(
                (standings["rows"] as? [[String: Any]])?.map { "\($0["displayName"]!) \($0["value"]!)" } == [
                    "Ana 6", "Ben 4.5",
                ]
            )
            let chloe = try await app.devSignIn(DemoData.accounts[2].email).accessToken
            let invited =
                try await app.request(.get, "/api/competitions", token: chloe).jsonObject()["items"] as? [[String: Any]]
            #expect(invited?.map { $0["myState"] as? String } == ["invited"])
            // A challenge already won: Ana's "Demo run-off", 25 XP a head, Ben's stake hers; on the
            // fitcircle profile its news reached her, and her two newest notifications are opened.
            let runOff = try #require(challenges.first { $0["name"] as? String == "Demo run-off" })
            #expect(
                runOff["status"] as? String == "settled"
                    && (runOff["myResult"] as? [String: Any])?["won"] as? Bool == true,
                "\(runOff)"
            )
            #expect((runOff["myResult"] as? [String: Any])?["payout"] as? Int == 50)
            let final = try await app.request(
                .get,
                "/api/competitions/\(runOff["id"] as! String)/leaderboard",
                token: token
            ).jsonObject()
            #expect(
                (final["rows"] as? [[String: Any]])?.map { "\($0["displayName"]!) \($0["won"] as? Bool == true)" } == [
                    "Ana true", "Ben false",
                ]
            )
            if profile == "fitcircle" {
                let won =
                    try await app.request(.get, "/api/notifications/history?type=challenge_won", token: token)
                    .jsonObject()["items"] as? [[String: Any]]
                #expect(won?.map { $0["body"] as? String } == ["You won 'Demo run-off' against Ben!"])
            }
            let inbox =
                try await app.request(.get, "/api/notifications/inbox?limit=2", token: token).jsonObject()["items"]
                as? [[String: Any]] ?? []
            #expect(!inbox.isEmpty && inbox.allSatisfy { $0["openedAt"] is String }, "\(inbox)")
            #expect(try await app.engine.replay.run() == [])
            #expect(try await app.engine.replay.sendHabitDifferences().map(\.description) == [])
            #expect(try await app.engine.replay.rewardDifferences() == [])
        }
    }
}
