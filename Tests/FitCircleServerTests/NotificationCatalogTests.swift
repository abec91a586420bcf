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

    static let raisable = Set(RaisedType.allCases.map(\.rawValue))

    @Test func theSocialProfileListsEveryTypeFriendsAndCirclesRaise() throws {
        let listed = try Self.catalog("social")
        let missing = Set(RaisedType.allCases.filter(\.isSocial).map(\.rawValue)).subtracting(listed)
        #expect(missing.isEmpty, "raised but notifying nobody under the social profile: \(missing.sorted())")
    }

    /// A candidate is made only from a `RaisedType`, so a type a profile lists outside the registry could
    /// never be raised.
    @Test func everyTypeAProfileListsIsOneTheEngineRaises() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: profilesDirectory.path).filter {
            $0.hasSuffix(".yaml")
        }.map { String($0.dropLast(5)) }
        #expect(names.count >= 5)
        for name in names {
            let untriggered = try Self.catalog(name).subtracting(Self.raisable)
            #expect(untriggered.isEmpty, "\(name) lists types nothing raises: \(untriggered.sorted())")
        }
    }

    /// Every deep link a shipped profile's catalog makes is one the document's "Deep links" table says an
    /// operation reads, and that operation exists (review item 6: `fitcircle://invitations/{invitationId}`
    /// and a milestone's `fitcircle://challenges/{circleId}` led nowhere).
    @Test func everyDeepLinkIsReadByAnOperationOfTheDocument() throws {
        let document = OpenAPILintTests.document
        let overview = (document["info"] as? [String: Any])?["description"] as? String ?? ""
        var table: [String: String] = [:]
        for line in overview.split(separator: "\n") where line.contains("| `fitcircle://") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2 else { continue }
            table[cells[0].trimmingCharacters(in: ["`"])] = cells[1].trimmingCharacters(in: ["`"])
        }
        #expect(table.count >= 10, "the table of deep links in the overview")
        let operations = Set(OpenAPILintTests.operations.map(\.id))
        for (link, operation) in table.sorted(by: { $0.key < $1.key }) {
            #expect(operations.contains(operation), "\(link) is read by \(operation), which the document lacks")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: profilesDirectory.path).filter {
            $0.hasSuffix(".yaml")
        }
        for name in names {
            let types = try RuleProfileLoader.load(named: String(name.dropLast(5)), from: profilesDirectory)
                .notifications.types
            for type in types {
                // An app's own scheme (`pushups://`) opens the same screens.
                guard let link = type.deepLink, let path = link.split(separator: "://").last else { continue }
                #expect(
                    table["fitcircle://\(path)"] != nil,
                    "\(name): \(type.type) links to \(link), which no operation reads"
                )
            }
        }
    }

    /// Every registered type is listed by some shipped profile (candidates included): a type no app can
    /// turn on is dead code.
    @Test func everyRegisteredTypeIsListedBySomeProfile() throws {
        let directory = profilesDirectory
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".yaml") }
            .map { String($0.dropLast(5)) }
        let listed = try files.reduce(into: Set<String>()) { $0.formUnion(try Self.catalog($1)) }
        #expect(
            Self.raisable.subtracting(listed).isEmpty,
            "registered, listed nowhere: \(Self.raisable.subtracting(listed).sorted())"
        )
    }

    /// `friend_activity` (spec 004: optional, off by default): only friends who turned it on hear of a
    /// workout, and never of a private one.
    @Test(arguments: Backend.available)
    func r10_2_r10_6_aFriendsWorkoutReachesOnlyFriendsWhoTurnedItOn(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "social") { app async throws in
            let (ana, bo, cy) = (
                try await app.person(named: "Ana"), try await app.person(named: "Bo"),
                try await app.person(named: "Cy")
            )
            try await app.befriend(ana, bo)
            try await app.befriend(ana, cy)
            let types =
                try await app.request(.get, "/api/notifications/preferences", token: try await bo.token(app))
                .jsonObject()["types"] as? [[String: Any]]
            let offered = try #require(types?.first { $0["type"] as? String == "friend_activity" })
            #expect(
                (offered["channels"] as? [String: Bool])?.values.contains(true) == false,
                "off by default: \(offered)"
            )
            let on: [String: Any] = [
                "types": [["type": "friend_activity", "channels": ["push": true, "inApp": true]]]
            ]
            #expect(
                try await app.request(.put, "/api/notifications/preferences", token: try await bo.token(app), json: on)
                    .status == .ok
            )

            try await app.recordWorkout("run", by: ana, minutesAgo: 5)
            try await app.recordWorkout("secret", by: ana, minutesAgo: 3, visibility: ._private)
            let person = { (p: TestPerson) in p }
            let told = try await app.notifications(of: person(bo), type: "friend_activity")
            #expect(
                told.count == 1 && told.first?.body == "Ana just finished a run." && told.first?.status == .sent,
                "\(told)"
            )
            #expect(try await app.notifications(of: person(cy), type: "friend_activity").isEmpty)
        }
    }
}
