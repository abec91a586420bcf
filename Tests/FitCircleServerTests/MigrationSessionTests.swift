import FitCircleClient
import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

/// Moving local history in with a migration session (spec 004, R14.3–R14.7): batches name it, and it
/// counts each client event once, by id, with its latest answer.
struct MigrationSessionTests {
    static func workout(_ app: TestApp, _ id: String, hoursAgo: Double, minutes: Double = 30) -> [String: Any] {
        [
            "clientEventId": id, "type": "workout", "source": "app",
            "occurredAt": iso8601(app.clock.now.addingTimeInterval(-hoursAgo * 3_600)),
            "workout": ["type": "running", "durationSeconds": minutes * 60, "distanceMeters": 5_000],
        ]
    }

    static func counts(_ session: Components.Schemas.MigrationSession) -> [Int] {
        [session.received, session.accepted, session.duplicates, session.refused]
    }

    @Test(arguments: Backend.available)
    func r14_3to7_aSessionCountsEachEventOnceAndSaysWhenEverythingArrived(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser("ana@example.com")
            // Recorded before the migration: the app's local copy holds it too.
            #expect(
                try await app.request(
                    .post,
                    "/api/activities",
                    token: token,
                    json: Self.workout(app, "e5", hoursAgo: 50)
                ).status == .created
            )
            let opened = try await app.request(.post, "/api/user/migrations", token: token, json: ["expected": 5])
            #expect(opened.status == .created)
            let fresh = try opened.decoded(as: Components.Schemas.MigrationSession.self)
            let id = fresh.id
            #expect(Self.counts(fresh) == [0, 0, 0, 0] && !fresh.complete)

            var broken = Self.workout(app, "e4", hoursAgo: 40)
            broken["workout"] = ["type": "running", "durationSeconds": -5]
            let first: [String: Any] = [
                "migrationId": id,
                "events": [
                    Self.workout(app, "e1", hoursAgo: 10), Self.workout(app, "e2", hoursAgo: 20),
                    Self.workout(app, "e3", hoursAgo: 30), broken,
                ],
            ]
            for _ in 0..<2 {  // sent twice (a retry after a timeout): the counts do not move
                #expect(try await app.request(.post, "/api/activities/batch", token: token, json: first).status == .ok)
                let session = try await app.api(token).getMigration(path: .init(id: id)).ok.body.json
                #expect(Self.counts(session) == [4, 3, 0, 1] && !session.complete, "\(session)")
            }
            // The refused one fixed, and the one recorded before: everything is here.
            let second: [String: Any] = [
                "migrationId": id,
                "events": [Self.workout(app, "e4", hoursAgo: 40), Self.workout(app, "e5", hoursAgo: 50)],
            ]
            #expect(try await app.request(.post, "/api/activities/batch", token: token, json: second).status == .ok)
            let done = try await app.api(token).getMigration(path: .init(id: id)).ok.body.json
            #expect(Self.counts(done) == [5, 4, 1, 0] && done.complete && done.expected == 5, "\(done)")
            let listed = try await app.api(token).listActivities(query: .init(limit: 200)).ok.body.json
            #expect(listed.items.count == 5)
        }
    }

    @Test(arguments: Backend.available)
    func r14_6_aSessionIsItsOwnersAndBadInputChangesNothing(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.onboardedUser("ana@example.com")
            let bo = try await app.onboardedUser("bo@example.com")
            let id = try await app.request(.post, "/api/user/migrations", token: ana, json: [:])
                .decoded(as: Components.Schemas.MigrationSession.self).id
            #expect(try await app.request(.get, "/api/user/migrations/\(id)", token: bo).status == .notFound)
            // Bo's batch naming Ana's session: refused whole, nothing recorded.
            let batch: [String: Any] = ["migrationId": id, "events": [Self.workout(app, "b1", hoursAgo: 1)]]
            let refused = try await app.request(.post, "/api/activities/batch", token: bo, json: batch)
            #expect(refused.status == .unprocessableContent && refused.text.contains("migrationId"), "\(refused.text)")
            #expect(try await app.api(bo).listActivities().ok.body.json.items.isEmpty)
            for expected in [-1, 10_000_001] {
                let bad = try await app.request(.post, "/api/user/migrations", token: ana, json: ["expected": expected])
                #expect(bad.status == .unprocessableContent && bad.text.contains("expected"))
            }
            // Without an expected count: a session that counts, and is never "complete".
            let open = try await app.request(.post, "/api/user/migrations", token: ana, json: [:])
            let session = try open.decoded(as: Components.Schemas.MigrationSession.self)
            #expect(open.status == .created && !session.complete)
        }
    }
}
