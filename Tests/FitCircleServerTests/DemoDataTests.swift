import FitCircleClient
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
            let api = try await app.api(as: DemoData.accounts[0].email)
            let days = try await api.listDailyTotals(query: .init(from: "2026-02-10", to: "2026-03-02")).ok.body.json
            #expect(days.days.count == 21)
            let streak = try await api.getCurrentStreak().ok.body.json
            // Ana missed two days in a row last week (the demo's history): her streak started again after.
            #expect(profile != "fitcircle" || (2...7).contains(streak.current), "\(streak)")
            #expect(try await api.getUserStats().ok.body.json.points.totalPoints > 0)
            // The demo circle: three members on the board, Chloé (the most steps today) first.
            let circle = try #require(try await api.listFitCircles().ok.body.json.items.first?.id)
            let board = try await api.getFitCircleLeaderboard(path: .init(id: circle), query: .init(period: .daily))
            #expect(try board.ok.body.json.rows.map(\.displayName) == ["Chloé", "Ben", "Ana"])
            let feed = try await api.getFitCircleFeed(path: .init(id: circle)).ok.body.json.items
            #expect(feed.filter { $0.encouragements > 0 }.map(\.actorName) == ["Chloé"])
            // Friends: Ben; Chloé's request waits for Ana; Ben's 🔥 on one of Ana's runs.
            #expect(try await api.listFriends().ok.body.json.items.map(\.displayName) == ["Ben"])
            #expect(try await api.listFriendRequests().ok.body.json.items.map(\.displayName) == ["Chloé"])
            let runs = try await api.getFriendFeed(query: .init(_type: .running, limit: 100)).ok.body.json.items
            #expect(runs.filter { $0.reactions.counts.additionalProperties == ["🔥": 1] }.count == 1)
            // The challenge under way: Ana's 6 km ahead of Ben's 4.5, Chloé invited.
            let challenges = try await api.listCompetitions().ok.body.json.items
            let challenge = try #require(challenges.first { $0.name == "Demo 10K week" })
            #expect(challenge.status == .active)
            let standings = try await api.getCompetitionLeaderboard(path: .init(id: challenge.id)).ok.body.json
            #expect(standings.rows.map(\.displayName) == ["Ana", "Ben"] && standings.rows.map(\.value) == [6, 4.5])
            let chloe = try await app.api(as: DemoData.accounts[2].email)
            #expect(try await chloe.listCompetitions().ok.body.json.items.map(\.myState) == [.invited])
            // A challenge already won: Ana's "Demo run-off", 25 XP a head, Ben's stake hers; on the
            // fitcircle profile its news reached her, and her two newest notifications are opened.
            let runOff = try #require(challenges.first { $0.name == "Demo run-off" })
            #expect(runOff.status == .settled && runOff.myResult?.won == true, "\(runOff)")
            #expect(runOff.myResult?.payout == 50)
            let final = try await api.getCompetitionLeaderboard(path: .init(id: runOff.id)).ok.body.json
            #expect(final.rows.map { "\($0.displayName) \($0.won == true)" } == ["Ana true", "Ben false"])
            if profile == "fitcircle" {
                let won = try await api.getNotificationHistory(query: .init(_type: "challenge_won")).ok.body.json.items
                #expect(won.map(\.body) == ["You won 'Demo run-off' against Ben!"])
            }
            let inbox = try await api.getNotificationInbox(query: .init(limit: 2)).ok.body.json.items
            #expect(!inbox.isEmpty && inbox.allSatisfy { $0.openedAt != nil }, "\(inbox)")
            #expect(try await app.engine.replay.run() == [])
            #expect(try await app.engine.replay.sendHabitDifferences().map(\.description) == [])
            #expect(try await app.engine.replay.rewardDifferences() == [])
        }
    }
}
