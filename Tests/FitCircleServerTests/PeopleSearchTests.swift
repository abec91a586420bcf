import FitCircleCore
import FitCircleServer
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Finding people (spec 004, R15) through `GET /api/users/search`.
struct PeopleSearchTests {
    typealias Person = TestPerson

    static func search(_ app: TestApp, _ query: String, by person: Person) async throws -> [[String: Any]] {
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
        let response = try await app.request(.get, "/api/users/search?q=\(encoded)", token: try await person.token(app))
        #expect(response.status == .ok, "\(response.text)")
        return try response.jsonObject()["items"] as? [[String: Any]] ?? []
    }

    static func names(_ found: [[String: Any]]) -> [String] { found.compactMap { $0["displayName"] as? String } }

    @Test(arguments: Backend.available)
    func r6_1_r15_2_aQueryFindsTheStartOfAnyWordOfANameOrAnExactAddress(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person(named: "Ana")
            _ = try await app.person(named: "José Ángel Ruiz", email: "jose@example.com")
            _ = try await app.person(named: "Angela Smith")
            _ = try await app.person(named: "Bo Angström", email: "bo@example.com")
            _ = try await app.person(named: "Mango Lee")
            #expect(
                Self.names(try await Self.search(app, "ANG", by: ana)) == [
                    "José Ángel Ruiz", "Angela Smith", "Bo Angström",
                ]
            )
            #expect(Self.names(try await Self.search(app, "jose an", by: ana)) == ["José Ángel Ruiz"])
            #expect(Self.names(try await Self.search(app, "smi", by: ana)) == ["Angela Smith"])
            // An address matches only whole, so addresses cannot be enumerated by prefix.
            #expect(Self.names(try await Self.search(app, "Jose@Example.com", by: ana)) == ["José Ángel Ruiz"])
            #expect(try await Self.search(app, "jose@", by: ana).isEmpty)
            #expect(try await Self.search(app, "jose@example.co", by: ana).isEmpty)
            // A rename is found under its new name at once, and no longer under the old.
            let bo = try await app.person(named: "Bo Angström", email: "bo@example.com")
            var profile = TestApp.validProfile()
            profile["displayName"] = "Bob Marsh"
            #expect(
                try await app.request(.put, "/api/user/profile", token: try await bo.token(app), json: profile).status
                    == .ok
            )
            #expect(Self.names(try await Self.search(app, "ang", by: ana)) == ["José Ángel Ruiz", "Angela Smith"])
            #expect(Self.names(try await Self.search(app, "mars", by: ana)) == ["Bob Marsh"])
        }
    }

    @Test(arguments: Backend.available)
    func r6_2_r15_3to5_resultsLeaveOutMeMyFriendsAndWhoBlockedMeAndStopAtTwenty(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let me = try await app.person(named: "Anna Me")
            let friend = try await app.person(named: "Anna Friend")
            let blocker = try await app.person(named: "Anna Blocker")
            let asked = try await app.person(named: "Anna Asked")
            let asking = try await app.person(named: "Anna Asking")
            _ = try await app.friendAction("/api/friends/request", by: me, to: friend)
            _ = try await app.friendAction("/api/friends/accept", by: friend, to: me)
            _ = try await app.friendAction("/api/friends/blocks", by: blocker, to: me)
            _ = try await app.friendAction("/api/friends/request", by: me, to: asked)
            _ = try await app.friendAction("/api/friends/request", by: asking, to: me)
            let found = try await Self.search(app, "anna", by: me)
            #expect(Self.names(found) == ["Anna Asked", "Anna Asking"])
            #expect(found.map { $0["pendingRequest"] as? String } == ["outgoing", "incoming"])
            // The one who blocked is found by nobody they blocked, but by others.
            #expect(Self.names(try await Self.search(app, "blocker", by: friend)) == ["Anna Blocker"])

            for n in 1...25 { _ = try await app.person(named: "Anna \(n)", email: "anna\(n)@example.com") }
            #expect(try await Self.search(app, "anna", by: me).count == 20)
        }
    }

    /// A search reads only its index (issue 42), which carries a copy of what a result shows: the copy follows
    /// the account at once — disabled, it is found by nobody; enabled again, it is.
    @Test(arguments: Backend.available)
    func aDisabledAccountIsFoundByNobodyUntilItIsEnabledAgain(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person(named: "Ana Seeker")
            let bo = try await app.person(named: "Bo Quiet")
            #expect(Self.names(try await Self.search(app, "quiet", by: ana)) == ["Bo Quiet"])
            try await app.store.transaction { try await $0.users.setDisabled(app.clock.now, of: User.ID(bo.id)) }
            #expect(try await Self.search(app, "quiet", by: ana).isEmpty)
            try await app.store.transaction { try await $0.users.setDisabled(nil, of: User.ID(bo.id)) }
            #expect(Self.names(try await Self.search(app, "quiet", by: ana)) == ["Bo Quiet"])
        }
    }

    @Test(arguments: Backend.available)
    func r15_6_aQueryOfFewerThanThreeLettersIs400AndSearchesNothing(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            for query in ["ab", "a%20b", "--", "", String(repeating: "a", count: 400)] {
                let response = try await app.request(.get, "/api/users/search?q=\(query)", token: token)
                #expect(response.status == .badRequest, "\(query)")
                #expect(try response.problemType() == "/problems/bad-request")
                #expect((try response.problem().fields.first) == "q")
            }
            #expect(try await app.request(.get, "/api/users/search", token: token).status == .badRequest)
        }
    }

    @Test(arguments: Backend.available)
    func r15_7_searchesHaveABudgetPerUser(_ backend: Backend) async throws {
        var limits = RequestLimits.generous
        limits.searches = 3
        try await withTestApp(backend, limits: limits) { app async throws in
            let token = try await app.onboardedUser()
            for _ in 1...3 {
                #expect(try await app.request(.get, "/api/users/search?q=someone", token: token).status == .ok)
            }
            let refused = try await app.request(.get, "/api/users/search?q=someone", token: token)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] != nil)
            #expect(try refused.problemType() == "/problems/rate-limited")
            // Other operations keep their own budget.
            #expect(try await app.request(.get, "/api/friends", token: token).status == .ok)
        }
    }
}
