import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import Testing

/// The profiles' catalogs against what the engine raises: the social profile (spec 004's app) lists every
/// type friends and circles raise, and no profile lists a type nothing raises.
struct NotificationCatalogTests {
    static func catalog(_ name: String) throws -> Set<String> {
        Set(try RuleProfileLoader.load(named: name, from: profilesDirectory).notifications.types.map(\.type))
    }

    @Test func theSocialProfileListsEveryTypeFriendsAndCirclesRaise() throws {
        let listed = try Self.catalog("social")
        let missing = Friends.notificationTypes.union(RaisedTypes.circles).subtracting(listed)
        #expect(missing.isEmpty, "raised but notifying nobody under the social profile: \(missing.sorted())")
    }

    @Test func everyTypeAProfileListsHasATrigger() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: profilesDirectory.path).filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }
        #expect(names.count >= 5)
        for name in names {
            let untriggered = try Self.catalog(name).subtracting(RaisedTypes.all)
            #expect(untriggered.isEmpty, "\(name) lists types nothing raises: \(untriggered.sorted())")
        }
    }

    /// Every type the engine's sources name where they raise is one `RaisedTypes` knows, so the two above
    /// cannot pass on a list that has drifted from the code.
    @Test func everyTypeRaisedInTheSourcesIsKnown() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/FitCircleEngine")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 50)
        let pattern = try Regex(#"type: "([a-z_]+)", dedupeKey"#)
        var raised: Set<String> = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: pattern) { raised.insert(String(match.output[1].substring!)) }
        }
        #expect(raised.count >= 8, "\(raised)")
        #expect(raised.subtracting(RaisedTypes.all).isEmpty, "raised but unknown: \(raised.subtracting(RaisedTypes.all).sorted())")
    }

    /// `friend_activity` (spec 004: optional, off by default): only friends who turned it on hear of a
    /// workout, and never of a private one.
    @Test(arguments: Backend.available)
    func r10_2_r10_6_aFriendsWorkoutReachesOnlyFriendsWhoTurnedItOn(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "social") { app async throws in
            let (ana, bo, cy) = (try await FriendsTests.person(app, "Ana"), try await FriendsTests.person(app, "Bo"), try await FriendsTests.person(app, "Cy"))
            try await FriendFeedTests.befriend(app, ana, bo)
            try await FriendFeedTests.befriend(app, ana, cy)
            let types = try await app.request(.get, "/api/notifications/preferences", token: try await bo.token(app)).jsonObject()["types"] as? [[String: Any]]
            let offered = try #require(types?.first { $0["type"] as? String == "friend_activity" })
            #expect((offered["channels"] as? [String: Bool])?.values.contains(true) == false, "off by default: \(offered)")
            let on: [String: Any] = ["types": [["type": "friend_activity", "channels": ["push": true, "inApp": true]]]]
            #expect(try await app.request(.put, "/api/notifications/preferences", token: try await bo.token(app), json: on).status == .ok)

            try await FriendFeedTests.workout(app, by: ana, "run", minutesAgo: 5)
            try await FriendFeedTests.workout(app, by: ana, "secret", minutesAgo: 3, visibility: "private")
            let person = { (p: FriendsTests.Person) in CirclesTests.Person(id: p.id, email: p.email) }
            let told = try await LeaderboardTests.notifications(app, person(bo), "friend_activity")
            #expect(told.count == 1 && told.first?.body == "Ana just finished a run." && told.first?.status == .sent, "\(told)")
            #expect(try await LeaderboardTests.notifications(app, person(cy), "friend_activity").isEmpty)
        }
    }
}
