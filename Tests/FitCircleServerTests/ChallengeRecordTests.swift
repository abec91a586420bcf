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
        type: Components.Schemas.CompetitionType = .mostActivities
    ) async throws {
        let duel = Components.Schemas.CompetitionInput(
            name: "Duel",
            _type: type,
            visibility: ._public,
            durationDays: 1,
            stake: stake
        )
        let id = try await app.api(as: people[0].0).createCompetition(body: .json(duel)).created.body.json.id
        for (person, _) in people.dropFirst() {
            _ = try await app.api(as: person).joinCompetition(path: .init(id: id), body: .json(.init())).ok
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
            try await Self.play(app, [(ana, 2), (ben, 1)], stake: 60, type: .workouts)

            let record = try await app.api(as: ben).getChallengeRecord(path: .init(id: ana.id)).ok.body.json
            #expect(
                record.challenges == 3 && record.wins == 2 && record.currentWinStreak == 1
                    && record.longestWinStreak == 1,
                "\(record)"
            )
            #expect(record.xpWon == 120 + 60 && record.xpLost == 60, "\(record)")
            #expect(abs((record.averagePlacement ?? 0) - 4.0 / 3) < 0.001)

            let rivalry = try await app.api(as: ana).getRivalry(path: .init(id: ben.id)).ok.body.json
            let versus = rivalry.record
            #expect(versus.wins == 2 && versus.losses == 1 && versus.draws == 0, "\(rivalry)")
            #expect(versus.xpWon == 60 + 60 && versus.xpLost == 60 && versus.streak == 1, "\(rivalry)")
            #expect(rivalry.lastFive.map(\.outcome.rawValue) == ["win", "loss", "win"])
            #expect(rivalry.favouriteTypes.first == .mostActivities)
            let theirs = try await app.api(as: ben).getRivalry(path: .init(id: ana.id)).ok.body.json.record
            #expect(theirs.wins == 1 && theirs.losses == 2 && theirs.streak == -1)
            // Cy is nobody's friend here: no rivalry kept, though they met.
            let cyRivalry = try await app.api(as: cy).getRivalry(path: .init(id: ana.id)).ok.body.json.record
            #expect(cyRivalry.wins == 0 && cyRivalry.losses == 0)

            let rivals = try await app.api(as: ben).listRivals().ok.body.json
            #expect(rivals.top.map(\.userId) == [ana.id])
            #expect(rivals.nemesis?.userId == ana.id && rivals.dominated?.userId == ana.id)

            #expect(try await app.engine.replay.challengeRecordDifferences().isEmpty)
            try await app.store.execute(unsafeSQL: "DELETE FROM challenge_records")
            #expect(try await app.engine.replay.challengeRecordDifferences(fix: true).count == 3)
            #expect(try await app.engine.replay.challengeRecordDifferences().isEmpty)
            #expect(try await app.engine.replay.escrowDifferences().isEmpty)
            _ = try await app.api(as: ana).getRivalry(path: .init(id: "nobody")).notFound
        }
    }
}
