import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

/// An app that mirrors its activities on the device syncs what changed since its last sync (issue 46, item
/// 7): a first sync pages every live activity; a later one, from the last page's `syncToken`, gives what
/// was recorded, edited or made visible since, as it is now, and what was deleted, as tombstones — nothing
/// else, and nothing of anyone else's.
struct ActivitySyncTests {
    struct Page {
        var items: [[String: Any]]
        var next: String?
        var token: String?
        var ids: [String] { self.items.compactMap { $0["clientEventId"] as? String } }
    }

    static func sync(_ app: TestApp, _ token: String, _ query: String) async throws -> Page {
        let answer = try await app.request(.get, "/api/activities/changes?\(query)", token: token)
        #expect(answer.status == .ok, "\(answer.text)")
        let json = try answer.jsonObject()
        return Page(
            items: json["items"] as? [[String: Any]] ?? [],
            next: json["nextCursor"] as? String,
            token: json["syncToken"] as? String
        )
    }

    static func steps(_ app: TestApp, _ token: String, _ id: String, _ steps: Int) async throws -> String {
        let body: [String: Any] = [
            "clientEventId": id, "type": "steps", "source": "healthkit", "steps": steps,
            "occurredAt": iso8601(app.clock.now.addingTimeInterval(-3600)),
        ]
        let answer = try await app.request(.post, "/api/activities", token: token, json: body)
        #expect(answer.status == .created, "\(answer.text)")
        return try #require(try answer.jsonObject()["id"] as? String)
    }

    @Test(arguments: Backend.available)
    func aSecondSyncGivesWhatChangedWithTombstones(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            let ana = try await app.onboardedUser("ana@example.com")
            let ben = try await app.onboardedUser("ben@example.com")
            var ids: [String: String] = [:]
            for (name, count) in [("a", 1000), ("b", 2000), ("c", 3000), ("e", 5000)] {
                ids[name] = try await Self.steps(app, ana, name, count)
                app.clock.advance(by: 1)
            }
            _ = try await Self.steps(app, ben, "bens", 500)
            // Past the overlap (`ActivitySync.overlap`) each time, so that a sync gives only what is new.
            app.clock.advance(by: 120)

            // A first sync, two a page: the live activities, oldest change first; the token on the last page.
            let first = try await Self.sync(app, ana, "limit=2")
            #expect(first.ids == ["a", "b"] && first.next != nil && first.token == nil)
            let rest = try await Self.sync(app, ana, "limit=2&cursor=\(try #require(first.next))")
            #expect(rest.ids == ["c", "e"] && rest.next == nil)
            let token = try #require(rest.token)

            // An edit, a deletion, a new activity, one made private; "c" untouched.
            let edit: [String: Any] = [
                "modifiedAt": iso8601(app.clock.now),
                "activity": [
                    "clientEventId": "a", "type": "steps", "source": "healthkit", "steps": 1500,
                    "occurredAt": iso8601(app.clock.now.addingTimeInterval(-3700)),
                ],
            ]
            let edited = try await app.request(.post, "/api/activities/edits", token: ana, json: edit)
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(
                try await app.request(.delete, "/api/activities/\(ids["b"] ?? "")", token: ana).status == .noContent
            )
            _ = try await Self.steps(app, ana, "d", 4000)
            let hidden = try await app.request(
                .put,
                "/api/activities/\(ids["e"] ?? "")/visibility",
                token: ana,
                json: ["visibility": "private"]
            )
            #expect(hidden.status == .ok, "\(hidden.text)")
            app.clock.advance(by: 120)

            let second = try await Self.sync(app, ana, "since=\(token)")
            #expect(Set(second.ids) == ["a", "b", "d", "e"], "\(second.ids)")
            let byID = Dictionary(uniqueKeysWithValues: second.items.map { ($0["clientEventId"] as? String ?? "", $0) })
            #expect(byID["a"]?["deleted"] as? Bool == false)
            #expect((byID["a"]?["activity"] as? [String: Any])?["steps"] as? Int == 1500)
            #expect(byID["b"]?["deleted"] as? Bool == true && byID["b"]?["activity"] == nil)
            #expect(byID["b"]?["deletedAt"] is String && byID["b"]?["id"] as? String == ids["b"])
            #expect((byID["e"]?["activity"] as? [String: Any])?["visibility"] as? String == "private")
            let next = try #require(second.token)

            // Nothing changed since: nothing to apply.
            app.clock.advance(by: 120)
            let quiet = try await Self.sync(app, ana, "since=\(next)")
            #expect(quiet.items.isEmpty && quiet.token != nil)

            // The same calls refuse what they did not make, naming the parameter.
            for (query, field) in [
                ("since=\(first.next ?? "")", "since"), ("since=nonsense", "since"), ("cursor=\(token)", "cursor"),
                ("limit=0", "limit"), ("limit=501", "limit"),
            ] {
                let refused = try await app.request(.get, "/api/activities/changes?\(query)", token: ana)
                #expect(refused.status == .unprocessableContent, "\(query): \(refused.text)")
                #expect(try refused.problem().fields == [field], "\(query): \(refused.text)")
            }
        }
    }

    /// A change committed just before a sync's read but stamped earlier is not lost: the next sync starts a
    /// minute before the read, so changes of that minute come again (the app applies them by id).
    @Test(arguments: Backend.available)
    func theNextSyncOverlapsTheLastMinute(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            let ana = try await app.onboardedUser("ana@example.com")
            _ = try await Self.steps(app, ana, "a", 1000)
            let first = try await Self.sync(app, ana, "")
            #expect(first.ids == ["a"])
            app.clock.advance(by: 30)
            let again = try await Self.sync(app, ana, "since=\(try #require(first.token))")
            #expect(again.ids == ["a"])
        }
    }
}
