import FitCircleClient
import FitCircleTesting
import Foundation
import Testing

/// A workout recorded as it starts ends after it was recorded, and one raced as soon as the challenge is
/// made may have started a few seconds before it (the phone's clock behind the server's). Neither is lost:
/// it counts on the board at once, and the challenge settles with it.
struct UnderwayWorkoutTests {
    /// Ana's day-long distance challenge with 50 XP at stake, made now, and Ben in it.
    static func duel(_ app: TestApp, _ name: String) async throws -> (
        TestPerson, TestPerson, String
    ) {
        let ana = try await app.person("ana@example.com", xp: 300)
        let ben = try await app.person("ben@example.com", xp: 300)
        try await app.befriend(ana, ben)
        let input = Components.Schemas.CompetitionInput(
            name: name,
            _type: .distance,
            durationDays: 1,
            stake: 50,
            invitees: [ben.id]
        )
        let id = try await app.api(as: ana).createCompetition(body: .json(input)).created.body.json.id
        _ = try await app.api(as: ben).joinCompetition(path: .init(id: id), body: .json(.init())).ok
        return (ana, ben, id)
    }

    @Test(arguments: Backend.available)
    func aRunRecordedAsItStartsCountsAndWinsTheChallenge(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, ben, id) = try await Self.duel(app, "Sunday long run")

            app.clock.advance(by: 3600)
            // Started 10 seconds ago, 35 minutes long: it ends in the future.
            let run = app.workout("underway", km: 6, minutes: 35, startedMinutesAgo: 10.0 / 60)
            _ = try await app.api(as: ana).recordActivity(body: .json(run)).created
            let live = try await app.api(as: ben).getCompetitionLeaderboard(path: .init(id: id)).ok.body.json
            #expect(live.rows.first?.userId == ana.id, "\(live)")
            #expect(live.rows.first?.value == 6)

            try await app.settleChallenges(after: 1)
            #expect(try await app.winners(of: id, as: ben) == [ana.id])
            #expect(try await app.balance(of: ana) == 350)
            #expect(try await app.balance(of: ben) == 250)
        }
    }

    @Test(arguments: Backend.available)
    func aRunStartedSecondsBeforeAChallengeMadeOnTheSpotCounts(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, ben, id) = try await Self.duel(app, "Race you home")
            // Ana's phone started the run 10 seconds before the challenge began; Ben's started 6 minutes
            // before, more than any clock is off: his is a run of before the challenge.
            for (person, run) in [
                (ana, app.workout("ana-run", km: 6, minutes: 35, startedMinutesAgo: 10.0 / 60)),
                (ben, app.workout("ben-run", km: 9, minutes: 50, startedMinutesAgo: 6)),
            ] {
                _ = try await app.api(as: person).recordActivity(body: .json(run)).created
            }
            let live = try await app.api(as: ben).getCompetitionLeaderboard(path: .init(id: id)).ok.body.json
            #expect(live.rows.map(\.value) == [6, nil], "\(live)")
            try await app.settleChallenges(after: 1)
            #expect(try await app.winners(of: id, as: ana) == [ana.id])
        }
    }
}
