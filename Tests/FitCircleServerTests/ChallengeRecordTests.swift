import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Head-to-head (spec 002 §3): records and friends' rivalries moved by each settlement and rebuilt by replay.
struct ChallengeRecordTests {
    /// One day-long "most workouts" challenge of `people`, each doing the workouts given, settled.
    static func play(
        _ app: TestApp,
        _ people: [(TestPerson, Int)],
        stake: Int,
        type: String = "most_activities"
    ) async throws {
        let creator = people[0].0
        let created = try await app.request(
            .post,
            "/api/competitions",
            token: try await creator.token(app),
            json: [
                "name": "Duel", "type": type, "durationDays": 1, "stake": stake, "visibility": "public",
            ]
        ).jsonObject()
        let id = try #require(created["id"] as? String, "\(created)")
        for (person, _) in people.dropFirst() {
            #expect(
                try await app.request(
                    .post,
                    "/api/competitions/\(id)/join",
                    token: try await person.token(app),
                    json: [:]
                )
                .status == .ok
            )
        }
        app.clock.advance(by: 3 * 3600)
        for (person, count) in people where count > 0 {
            let events = (0..<count).map { index in
                app.workout("\(id)-\(index)", .walking, km: 2, minutes: 15, startedMinutesAgo: Double(170 - index * 16))
            }
            _ = try await app.api(as: person).recordActivityBatch(body: .json(.init(events: events))).ok
        }
        app.clock.advance(by: 24 * 3600)
        try await app.runJobs()
    }

    @Test(arguments: Backend.available)
    func spec002_recordsAndRivalriesFollowEverySettlementAndReplayRebuildsThem(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com", xp: 500)
            let ben = try await app.person("ben@example.com", xp: 500)
            let cy = try await app.person("cy@example.com", xp: 500)
            try await app.befriend(ana, ben)
            // Ana beats Ben (and Cy, no friend of hers), then Ben beats Ana, then Ana wins again.
            try await Self.play(app, [(ana, 3), (ben, 1), (cy, 2)], stake: 60)
            try await Self.play(app, [(ben, 4), (ana, 2)], stake: 60)
            try await Self.play(app, [(ana, 2), (ben, 1)], stake: 60, type: "workouts")

            let record = try await app.request(
                .get,
                "/api/users/\(ana.id)/challenge-record",
                token: try await ben.token(app)
            ).jsonObject()
            #expect(
                record["challenges"] as? Int == 3 && record["wins"] as? Int == 2
                    && record["currentWinStreak"] as? Int == 1
                    && record["longestWinStreak"] as? Int == 1,
                "\(record)"
            )
            #expect(record["xpWon"] as? Int == 120 + 60 && record["xpLost"] as? Int == 60, "\(record)")
            #expect(abs((record["averagePlacement"] as? Double ?? 0) - 4.0 / 3) < 0.001)

            let rivalry = try await app.request(.get, "/api/users/\(ben.id)/rivalry", token: try await ana.token(app))
                .jsonObject()
            let versus = try #require(rivalry["record"] as? [String: Any])
            #expect(
                versus["wins"] as? Int == 2 && versus["losses"] as? Int == 1 && versus["draws"] as? Int == 0,
                "\(rivalry)"
            )
            #expect(
                versus["xpWon"] as? Int == 60 + 60 && versus["xpLost"] as? Int == 60 && versus["streak"] as? Int == 1,
                "\(rivalry)"
            )
            #expect(
                (rivalry["lastFive"] as? [[String: Any]])?.map { $0["outcome"] as? String } == ["win", "loss", "win"]
            )
            #expect((rivalry["favouriteTypes"] as? [String])?.first == "most_activities")
            let theirs =
                try await app.request(.get, "/api/users/\(ana.id)/rivalry", token: try await ben.token(app))
                .jsonObject()[
                    "record"
                ] as? [String: Any]
            #expect(theirs?["wins"] as? Int == 1 && theirs?["losses"] as? Int == 2 && theirs?["streak"] as? Int == -1)
            // Cy is nobody's friend here: no rivalry kept, though they met.
            let cyRivalry =
                try await app.request(.get, "/api/users/\(ana.id)/rivalry", token: try await cy.token(app))
                .jsonObject()[
                    "record"
                ] as? [String: Any]
            #expect(cyRivalry?["wins"] as? Int == 0 && cyRivalry?["losses"] as? Int == 0)

            let rivals = try await app.request(.get, "/api/user/rivals", token: try await ben.token(app)).jsonObject()
            #expect((rivals["top"] as? [[String: Any]])?.map { $0["userId"] as? String } == [ana.id])
            #expect(
                (rivals["nemesis"] as? [String: Any])?["userId"] as? String == ana.id
                    && (rivals["dominated"] as? [String: Any])?["userId"] as? String == ana.id
            )

            #expect(try await app.engine.replay.challengeRecordDifferences().isEmpty)
            try await app.store.execute(unsafeSQL: "DELETE FROM challenge_records")
            #expect(try await app.engine.replay.challengeRecordDifferences(fix: true).count == 3)
            #expect(try await app.engine.replay.challengeRecordDifferences().isEmpty)
            #expect(try await app.engine.replay.escrowDifferences().isEmpty)
            #expect(
                try await app.request(.get, "/api/users/nobody/rivalry", token: try await ana.token(app)).status
                    == .notFound
            )
        }
    }
}
