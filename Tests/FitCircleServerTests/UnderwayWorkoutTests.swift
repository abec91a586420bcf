import FitCircleTesting
import Foundation
import Testing

/// A workout recorded as it starts ends after it was recorded, and one raced as soon as the challenge is
/// made may have started a few seconds before it (the phone's clock behind the server's). Neither is lost:
/// it counts on the board at once, and the challenge settles with it.
struct UnderwayWorkoutTests {
    /// Ana's day-long distance challenge with 50 XP at stake, made now, and Ben in it.
    static func duel(_ app: TestApp, _ name: String) async throws -> (
        ChallengeTests.Person, ChallengeTests.Person, String
    ) {
        let ana = try await ChallengeTests.person(app, "ana@example.com", xp: 300)
        let ben = try await ChallengeTests.person(app, "ben@example.com", xp: 300)
        try await ChallengeTests.befriend(app, ana, ben)
        let created = try await app.request(
            .post,
            "/api/competitions",
            token: try await ana.token,
            json: [
                "name": name, "type": "distance", "durationDays": 1, "stake": 50, "invitees": [ben.id],
            ]
        )
        #expect(created.status == .created, "\(created.text)")
        let id = try #require(try created.jsonObject()["id"] as? String)
        #expect(
            try await app.request(.post, "/api/competitions/\(id)/join", token: try await ben.token, json: [:]).status
                == .ok
        )
        return (ana, ben, id)
    }

    @Test(arguments: Backend.available)
    func aRunRecordedAsItStartsCountsAndWinsTheChallenge(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, ben, id) = try await Self.duel(app, "Sunday long run")

            app.clock.advance(by: 3600)
            // Started 10 seconds ago, 35 minutes long: it ends in the future.
            let run = ChallengeTests.run(app, "underway", km: 6, minutes: 35, startedMinutesAgo: 10.0 / 60)
            let recorded = try await app.request(.post, "/api/activities", token: try await ana.token, json: run)
            #expect(recorded.status == .created, "\(recorded.text)")
            let live = try await app.request(.get, "/api/competitions/\(id)/leaderboard", token: try await ben.token)
                .jsonObject()
            #expect(ChallengeTests.rows(live).first?["userId"] as? String == ana.id, "\(live)")
            #expect(ChallengeTests.rows(live).first?["value"] as? Double == 6)

            try await ChallengeKindTests.settleAfter(app, days: 1)
            #expect(try await ChallengeKindTests.winners(app, id, as: ben) == [ana.id])
            #expect(try await ChallengeTests.balance(app, ana) == 350)
            #expect(try await ChallengeTests.balance(app, ben) == 250)
        }
    }

    @Test(arguments: Backend.available)
    func aRunStartedSecondsBeforeAChallengeMadeOnTheSpotCounts(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, ben, id) = try await Self.duel(app, "Race you home")
            // Ana's phone started the run 10 seconds before the challenge began; Ben's started 6 minutes
            // before, more than any clock is off: his is a run of before the challenge.
            for (person, run) in [
                (ana, ChallengeTests.run(app, "ana-run", km: 6, minutes: 35, startedMinutesAgo: 10.0 / 60)),
                (ben, ChallengeTests.run(app, "ben-run", km: 9, minutes: 50, startedMinutesAgo: 6)),
            ] {
                #expect(
                    try await app.request(.post, "/api/activities", token: try await person.token, json: run).status
                        == .created
                )
            }
            let live = try await app.request(.get, "/api/competitions/\(id)/leaderboard", token: try await ben.token)
                .jsonObject()
            #expect(ChallengeTests.rows(live).map { $0["value"] as? Double } == [6, nil], "\(live)")
            try await ChallengeKindTests.settleAfter(app, days: 1)
            #expect(try await ChallengeKindTests.winners(app, id, as: ana) == [ana.id])
        }
    }
}
