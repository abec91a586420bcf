import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import Synchronization
import Testing

/// `fitcircle replay` on a database whose instants carry fractions of a second, as a real clock's do: the
/// audit of challenge records pages through exact keys, so it ends, and it tells how far it has gone.
struct ReplayAuditTests {
    @Test(arguments: Backend.available)
    func theAuditOfSettledChallengesEndsWithRealClockInstantsAndTellsItsProgress(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            // An instant whose seconds since 1970, read back through `Date`, are not the same double.
            app.clock.set(Date(timeIntervalSince1970: 1_772_452_800.920_956_6))
            let ana = try await app.person("ana@example.com")
            let ben = try await app.person("ben@example.com")
            try await app.befriend(ana, ben)
            for round in 0..<3 {
                let created = try await app.request(
                    .post,
                    "/api/competitions",
                    token: try await ana.token(app),
                    json: [
                        "name": "Round \(round)", "type": "distance", "durationDays": 1, "invitees": [ben.id],
                    ]
                )
                let id = try created.decoded(as: Components.Schemas.Competition.self).id
                _ = try await app.joinChallenge(id, as: ben).ok
                app.clock.advance(by: 600.123_4)
                let run = app.workout("r\(round)", km: 3 + Double(round), minutes: 20, startedMinutesAgo: 5)
                _ = try await app.api(as: ben).recordActivity(body: .json(run)).created
                try await app.settleChallenges(after: 1)
            }
            let told = Mutex<[String]>([])
            let replay = Replay(store: app.store, profile: app.engine.rules.base, clock: app.clock.wallClock) { line in
                told.withLock { $0.append(line) }
            }
            #expect(try await replay.challengeRecordDifferences().isEmpty)
            #expect(try await replay.run().isEmpty)
            let lines = told.withLock { $0 }
            #expect(lines.contains("challenge records: 3 of 3 settled challenges"), "\(lines)")
            #expect(lines.contains("daily tracking: 1 of 1 people"), "\(lines)")
            let record = try await app.request(
                .get,
                "/api/users/\(ben.id)/challenge-record",
                token: try await ana.token(app)
            ).decoded(as: Components.Schemas.ChallengeRecord.self)
            #expect(record.challenges == 3 && record.wins == 3, "\(record)")
        }
    }
}
