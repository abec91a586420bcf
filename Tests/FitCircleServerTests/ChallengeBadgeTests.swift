import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Spec 002 §4's challenge badges unlock from challenges played through the API: participation, victory,
/// specialty (a photo finish from last place) and social (made, hosted), with progress on the locked ones.
struct ChallengeBadgeTests {
    static func badges(_ app: TestApp, _ person: TestPerson) async throws -> [String: Components.Schemas.Badge] {
        let catalog = try await app.api(as: person).getBadges().ok.body.json
        return Dictionary(uniqueKeysWithValues: catalog.badges.map { ($0.id, $0) })
    }

    @Test(arguments: Backend.available)
    func spec002_4_challengeBadgesUnlockAtSettlementWithTheirXPAndShowProgress(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "famefit") { app async throws in
            let ana = try await app.person("ana@example.com")
            let ben = try await app.person("ben@example.com")
            let created = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token(app),
                json: [
                    "name": "Distance duel", "type": "most_distance", "durationDays": 1, "visibility": "public",
                ]
            ).decoded(as: Components.Schemas.Competition.self)
            let id = created.id
            _ = try await app.joinChallenge(id, as: ben).ok
            app.clock.advance(by: 5 * 3600)
            // Ben gets going first with 10 km; Ana starts last and edges past with 10.04 km: under 1 %.
            _ = try await app.api(as: ben).recordActivity(
                body: .json(app.workout("b", km: 10, minutes: 60, startedMinutesAgo: 240))
            ).created
            _ = try await app.api(as: ana).recordActivity(
                body: .json(app.workout("a", km: 10.04, minutes: 60, startedMinutesAgo: 120))
            ).created
            app.clock.advance(by: 22 * 3600)
            try await app.runJobs()

            let anas = try await Self.badges(app, ana)
            for badge in ["first-challenge", "first-victory", "photo-finish", "underdog"] {
                #expect(anas[badge]?.unlocked == true, "\(badge): \(String(describing: anas[badge]))")
            }
            #expect(anas["challenge-regular"]?.unlocked == false)
            func progress(_ badge: String) -> Double { anas[badge]?.progress ?? 0 }
            #expect(
                abs(progress("challenge-regular") - 0.1) < 0.001,
                "\(String(describing: anas["challenge-regular"]))"
            )
            #expect(abs(progress("challenge-creator") - 0.04) < 0.001, "made one of 25")
            #expect(abs(progress("popular-host") - 0.02) < 0.001, "one of 50 joined")
            #expect(abs(progress("versatile-victor") - 1.0 / 6) < 0.001)
            // Ana and Ben are not friends: "challenge 20 different people" and "10 challenges with the same
            // person" count them all the same.
            #expect(abs(progress("social-butterfly") - 0.05) < 0.001, "\(String(describing: anas["social-butterfly"]))")
            #expect(abs(progress("friendly-rivalry") - 0.1) < 0.001, "\(String(describing: anas["friendly-rivalry"]))")
            let bens = try await Self.badges(app, ben)
            #expect(
                bens["first-challenge"]?.unlocked == true && bens["first-victory"]?.unlocked == false
            )
            // The badges' XP is in the ledger, and the books still balance.
            let ledger = try await app.store.read { tx in try await tx.points.allLines(of: User.ID(ana.id)) }
            #expect(
                Set(ledger.filter { $0.reason == .badge }.compactMap(\.detail.badgeID)).isSuperset(of: [
                    "first-challenge", "first-victory", "photo-finish", "underdog",
                ])
            )
            #expect(try await app.engine.replay.rewardDifferences().isEmpty)
            #expect(try await app.engine.replay.challengeRecordDifferences().isEmpty)
        }
    }
}
