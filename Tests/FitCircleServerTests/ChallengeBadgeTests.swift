import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Spec 002 §4's challenge badges unlock from challenges played through the API: participation, victory,
/// specialty (a photo finish from last place) and social (made, hosted), with progress on the locked ones.
struct ChallengeBadgeTests {
    static func badges(_ app: TestApp, _ person: TestPerson) async throws -> [String: [String: Any]] {
        let catalog = try await app.request(.get, "/api/badges", token: try await person.token(app)).jsonObject()
        return Dictionary(
            uniqueKeysWithValues: (catalog["badges"] as? [[String: Any]] ?? []).map { ($0["id"] as? String ?? "", $0) }
        )
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
            ).jsonObject()
            let id = try #require(created["id"] as? String)
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
                #expect(anas[badge]?["unlocked"] as? Bool == true, "\(badge): \(anas[badge] ?? [:])")
            }
            #expect(anas["challenge-regular"]?["unlocked"] as? Bool == false)
            #expect(
                abs((anas["challenge-regular"]?["progress"] as? Double ?? 0) - 0.1) < 0.001,
                "\(anas["challenge-regular"] ?? [:])"
            )
            #expect(abs((anas["challenge-creator"]?["progress"] as? Double ?? 0) - 0.04) < 0.001, "made one of 25")
            #expect(abs((anas["popular-host"]?["progress"] as? Double ?? 0) - 0.02) < 0.001, "one of 50 joined")
            #expect(abs((anas["versatile-victor"]?["progress"] as? Double ?? 0) - 1.0 / 6) < 0.001)
            // Ana and Ben are not friends: "challenge 20 different people" and "10 challenges with the same
            // person" count them all the same.
            #expect(
                abs((anas["social-butterfly"]?["progress"] as? Double ?? 0) - 0.05) < 0.001,
                "\(anas["social-butterfly"] ?? [:])"
            )
            #expect(
                abs((anas["friendly-rivalry"]?["progress"] as? Double ?? 0) - 0.1) < 0.001,
                "\(anas["friendly-rivalry"] ?? [:])"
            )
            let bens = try await Self.badges(app, ben)
            #expect(
                bens["first-challenge"]?["unlocked"] as? Bool == true
                    && bens["first-victory"]?["unlocked"] as? Bool == false
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
