import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

struct ActivityLedgerTests {
    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    static func steps(_ id: String, _ count: Int, at date: Date, source: String = "healthkit", zone: String? = nil)
        -> [String: Any]
    {
        var body: [String: Any] = [
            "clientEventId": id, "type": "steps", "steps": count, "occurredAt": iso(date), "source": source,
        ]
        if let zone { body["timeZone"] = zone }
        return body
    }

    @Test(arguments: Backend.available)
    func anActivityIsRecordedOnceAndItsReplayChangesNothing(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let run: [String: Any] = [
                "clientEventId": "run-1", "type": "workout", "occurredAt": Self.iso(app.clock.now), "source": "app",
                "workout": ["type": "running", "durationSeconds": 1800, "distanceMeters": 5000],
            ]
            let first = try await app.request(.post, "/api/activities", token: token, json: run)
            #expect(first.status == .created)
            let created = try first.jsonObject()
            let workout = try #require(created["workout"] as? [String: Any])
            #expect(workout["caloriesEstimated"] as? Bool == true)
            #expect((workout["calories"] as? Double ?? 0) > 0)
            #expect(workout["paceSecondsPerKm"] as? Double == 360)
            #expect(created["localDate"] as? String == "2026-03-02")

            let again = try await app.request(.post, "/api/activities", token: token, json: run)
            #expect(again.status == .ok)
            #expect(try again.jsonObject()["id"] as? String == created["id"] as? String)

            var different = run
            different["workout"] = ["type": "running", "durationSeconds": 1900, "distanceMeters": 5000]
            let conflict = try await app.request(.post, "/api/activities", token: token, json: different)
            #expect(conflict.status == .conflict)

            let days = try await app.request(.get, "/api/tracking/daily?from=2026-03-02&to=2026-03-02", token: token)
                .jsonObject()
            let day = try #require((days["days"] as? [[String: Any]])?.first)
            #expect(day["workouts"] as? Int == 1)
            #expect(day["distanceMeters"] as? Double == 5000)
        }
    }

    @Test(arguments: Backend.available)
    func healthDataTotalsAreReplacedByTheLatestReading(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let t = app.clock.now
            for (count, offset) in [(4000, -7200.0), (6500, -600.0), (5000, -3600.0)] {
                let response = try await app.request(
                    .post,
                    "/api/tracking/daily",
                    token: token,
                    json: ["steps": count, "source": "healthkit", "occurredAt": Self.iso(t.addingTimeInterval(offset))]
                )
                #expect(response.status == .ok)
            }
            let days =
                try await app.request(.get, "/api/tracking/daily", token: token).jsonObject()["days"]
                as? [[String: Any]]
            #expect(days?.count == 1)
            #expect(days?.first?["steps"] as? Int == 6500)
            #expect(days?.first?["syncedSteps"] as? Int == 6500)
        }
    }

    @Test(arguments: Backend.available)
    func aTravellerKeepsEachEventOnTheLocalDateWhereItHappened(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser(timeZone: "Europe/Paris")
            // 2026-03-02 10:30 UTC: already the 3rd in Kiritimati (+14), still the 1st in Pago Pago (−11).
            let t = app.clock.now
            for (id, zone) in [
                ("paris", "Europe/Paris"), ("kiritimati", "Pacific/Kiritimati"), ("pago", "Pacific/Pago_Pago"),
            ] {
                let body: [String: Any] = [
                    "clientEventId": id, "type": "app_open", "occurredAt": Self.iso(t.addingTimeInterval(-5400)),
                    "timeZone": zone,
                ]
                #expect(try await app.request(.post, "/api/activities", token: token, json: body).status == .created)
            }
            let list =
                try await app.request(.get, "/api/activities", token: token).jsonObject()["items"] as? [[String: Any]]
                ?? []
            let dates = Dictionary(
                uniqueKeysWithValues: list.map { ($0["clientEventId"] as! String, $0["localDate"] as! String) }
            )
            #expect(dates == ["paris": "2026-03-02", "kiritimati": "2026-03-03", "pago": "2026-03-01"])
        }
    }

    @Test(arguments: Backend.available)
    func aBatchSentThreeTimesInPartsCreatesEachEventOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let t = app.clock.now
            let events =
                (0..<30).map {
                    Self.steps("sync-\($0)", 1000 + $0 * 10, at: t.addingTimeInterval(-Double($0) * 86_400 / 3))
                }
                + [Self.steps("bad", 200_000, at: t)]
            let first = try await app.request(.post, "/api/activities/batch", token: token, json: ["events": events])
                .jsonObject()
            #expect(first["created"] as? Int == 30)
            #expect(first["rejected"] as? Int == 1)
            let rejected = (first["results"] as? [[String: Any]])?.last
            #expect(rejected?["status"] as? String == "rejected")
            #expect(
                ((rejected?["problem"] as? [String: Any])?["errors"] as? [[String: String]])?.first?["field"]
                    == "events[30].steps"
            )

            // The client crashed and does not know what arrived: it sends everything again, in parts.
            for part in [Array(events[0..<10]), Array(events[5..<31]), events] {
                let replay = try await app.request(.post, "/api/activities/batch", token: token, json: ["events": part])
                    .jsonObject()
                #expect(replay["created"] as? Int == 0)
                #expect(replay["replayed"] as? Int == part.filter { $0["clientEventId"] as? String != "bad" }.count)
            }
            let all =
                try await app.request(.get, "/api/activities?limit=200", token: token).jsonObject()["items"]
                as? [[String: Any]]
            #expect(all?.count == 30)
            #expect(try await app.engine.replay.run().isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func aBatchOfMoreThanFiveHundredIsRefusedWhole(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let events = (0..<501).map { Self.steps("e\($0)", 10, at: app.clock.now, source: "manual") }
            let response = try await app.request(.post, "/api/activities/batch", token: token, json: ["events": events])
            #expect(response.status == .unprocessableContent)
            #expect((try response.jsonObject()["errors"] as? [[String: String]])?.first?["field"] == "events")
            let list = try await app.request(.get, "/api/activities", token: token).jsonObject()["items"] as? [Any]
            #expect(list?.isEmpty == true)
        }
    }

    @Test(arguments: Backend.available)
    func deletingAnActivityRecomputesItsDay(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let manual = Self.steps("m1", 1200, at: app.clock.now, source: "manual")
            let id = try #require(
                try await app.request(.post, "/api/activities", token: token, json: manual).jsonObject()["id"]
                    as? String
            )
            #expect(try await app.request(.delete, "/api/activities/\(id)", token: token).status == .noContent)
            #expect(try await app.request(.get, "/api/activities/\(id)", token: token).status == .notFound)
            #expect(try await app.request(.delete, "/api/activities/\(id)", token: token).status == .notFound)
            let day =
                try await app.request(.get, "/api/tracking/daily", token: token).jsonObject()["days"]
                as? [[String: Any]]
            #expect(day?.first?["steps"] as? Int == 0)
            #expect(try await app.engine.replay.run().isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func nobodySeesAnotherUsersActivities(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.onboardedUser("ana@example.com")
            let bo = try await app.onboardedUser("bo@example.com")
            let id = try #require(
                try await app.request(
                    .post,
                    "/api/activities",
                    token: ana,
                    json: Self.steps("a", 10, at: app.clock.now)
                ).jsonObject()["id"] as? String
            )
            #expect(try await app.request(.get, "/api/activities/\(id)", token: bo).status == .notFound)
            #expect(try await app.request(.delete, "/api/activities/\(id)", token: bo).status == .notFound)
            let list = try await app.request(.get, "/api/activities", token: bo).jsonObject()["items"] as? [Any]
            #expect(list?.isEmpty == true)
        }
    }

    @Test(arguments: Backend.available)
    func listingPagesThroughEverythingOnceWithFilters(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let t = app.clock.now
            var events = (0..<7).map { Self.steps("s\($0)", 100, at: t.addingTimeInterval(-Double($0) * 3600)) }
            events.append(["clientEventId": "open", "type": "app_open", "occurredAt": Self.iso(t)])
            _ = try await app.request(.post, "/api/activities/batch", token: token, json: ["events": events])
            var seen: [String] = []
            var cursor: String?
            repeat {
                let query =
                    "/api/activities?type=steps&limit=3"
                    + (cursor.map { "&cursor=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }
                        ?? "")
                let page = try await app.request(.get, query, token: token).jsonObject()
                seen += (page["items"] as? [[String: Any]] ?? []).map { $0["clientEventId"] as! String }
                cursor = page["nextCursor"] as? String
            } while cursor != nil
            #expect(seen == (0..<7).map { "s\($0)" })
            #expect(
                try await app.request(.get, "/api/activities?limit=0", token: token).status == .unprocessableContent
            )
            #expect(
                try await app.request(.get, "/api/activities?from=yesterday", token: token).status
                    == .unprocessableContent
            )
            #expect(
                try await app.request(.get, "/api/activities?cursor=nonsense", token: token).status
                    == .unprocessableContent
            )
        }
    }

    @Test(arguments: Backend.available)
    func impossibleInputIsAProblemAndChangesNothing(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let t = app.clock.now
            let cases: [([String: Any], String)] = [
                (Self.steps("a", 100_001, at: t), "steps"),
                (Self.steps("b", 10, at: t.addingTimeInterval(600)), "occurredAt"),
                (Self.steps("c", 10, at: t, zone: "Mars/Olympus"), "timeZone"),
                (
                    [
                        "clientEventId": "d", "type": "workout", "occurredAt": Self.iso(t),
                        "workout": ["type": "running", "durationSeconds": 300, "distanceMeters": 5000],
                    ], "distanceMeters"
                ),
                (
                    [
                        "clientEventId": "e", "type": "workout", "occurredAt": Self.iso(t),
                        "workout": ["type": "other", "durationSeconds": 90_000],
                    ], "durationSeconds"
                ),
                (["clientEventId": "f", "type": "weight", "occurredAt": Self.iso(t), "weightKg": 12], "weightKg"),
                (["clientEventId": "g", "type": "weight", "occurredAt": Self.iso(t)], "weightKg"),
            ]
            for (body, field) in cases {
                let response = try await app.request(.post, "/api/activities", token: token, json: body)
                #expect(response.status == .unprocessableContent, "\(body)")
                #expect((try response.jsonObject()["errors"] as? [[String: String]])?.first?["field"] == field)
            }
            let list = try await app.request(.get, "/api/activities", token: token).jsonObject()["items"] as? [Any]
            #expect(list?.isEmpty == true)
        }
    }

    @Test(arguments: Backend.available)
    func aSuddenSpikeIsAcceptedAndFlagged(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let t = app.clock.now
            _ = try await app.request(
                .post,
                "/api/activities",
                token: token,
                json: Self.steps("y", 8000, at: t.addingTimeInterval(-86_400))
            )
            let spike = try await app.request(
                .post,
                "/api/activities",
                token: token,
                json: Self.steps("t", 45_000, at: t)
            ).jsonObject()
            #expect(spike["flags"] as? [String] == ["steps_spike"])
        }
    }

    @Test(arguments: Backend.available)
    func statisticsSumTheLedgerAndKeepPersonalRecords(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let t = app.clock.now
            let runs = [(1800.0, 5000.0), (3000.0, 10_000.0), (1500.0, 5000.0)].enumerated().map {
                index,
                run -> [String: Any] in
                [
                    "clientEventId": "run\(index)", "type": "workout",
                    "occurredAt": Self.iso(t.addingTimeInterval(-Double(index) * 86_400)),
                    "workout": ["type": "running", "durationSeconds": run.0, "distanceMeters": run.1],
                ]
            }
            _ = try await app.request(.post, "/api/activities/batch", token: token, json: ["events": runs])
            let stats = try await app.request(.get, "/api/user/stats", token: token).jsonObject()
            #expect(stats["totalDistanceMeters"] as? Double == 20_000)
            #expect(stats["totalActivities"] as? Int == 3)
            #expect(stats["activeDays"] as? Int == 3)
            let running = (stats["personalRecords"] as? [[String: Any]])?.first
            #expect(running?["longestDistanceMeters"] as? Double == 10_000)
            #expect(running?["longestDurationSeconds"] as? Double == 3000)
            #expect(running?["fastestPaceSecondsPerKm"] as? Double == 300)
        }
    }

    @Test(arguments: Backend.available)
    func anIdempotencyKeyReplaysTheFirstResponseAndRefusesAnotherBody(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "key-1"]
            let body = Self.steps("k1", 500, at: app.clock.now, source: "manual")
            let first = try await app.request(.post, "/api/activities", token: token, json: body, headers: key)
            #expect(first.status == .created)
            let second = try await app.request(.post, "/api/activities", token: token, json: body, headers: key)
            #expect(second.status == .created)
            #expect(second.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(second.text == first.text)
            let other = try await app.request(
                .post,
                "/api/activities",
                token: token,
                json: Self.steps("k2", 1, at: app.clock.now),
                headers: key
            )
            #expect(other.status == .unprocessableContent)
            #expect((try other.jsonObject()["errors"] as? [[String: String]])?.first?["field"] == "Idempotency-Key")
            // Keys belong to their user.
            let bo = try await app.onboardedUser("bo@example.com")
            #expect(
                try await app.request(.post, "/api/activities", token: bo, json: body, headers: key).status == .created
            )
        }
    }

    @Test(arguments: Backend.available)
    func aKeyWhoseRequestNeverFinishedIsFreedAfterAMinuteAndKeysExpireAfterADay(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let caller = try await app.engine.accounts.authenticate(accessToken: token)
            let request = Data("POST /api/activities".utf8)
            #expect(try await app.engine.idempotency.claim("k", for: caller.userID, request: request) == .proceed)
            // The server died before answering: a retry within the minute is told to wait…
            await #expect(throws: DomainError.self) {
                try await app.engine.idempotency.claim("k", for: caller.userID, request: request)
            }
            // …and may run once the claim is abandoned.
            app.clock.advance(by: 61)
            #expect(try await app.engine.idempotency.claim("k", for: caller.userID, request: request) == .proceed)
            try await app.engine.idempotency.complete(
                "k",
                for: caller.userID,
                statusCode: 201,
                contentType: nil,
                body: Data("x".utf8)
            )
            #expect(
                try await app.engine.idempotency.claim("k", for: caller.userID, request: request)
                    == .replay(statusCode: 201, contentType: nil, body: Data("x".utf8))
            )
            app.clock.advance(by: 24 * 3600 + 1)
            #expect(
                try await app.engine.idempotency.claim("k", for: caller.userID, request: Data("other".utf8)) == .proceed
            )
        }
    }

    @Test(arguments: Backend.available)
    func concurrentSyncsOfOneDayLoseNothing(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let t = app.clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let body = Self.steps(
                            "m\(index)",
                            100,
                            at: t.addingTimeInterval(-Double(index)),
                            source: "manual"
                        )
                        _ = try await app.request(.post, "/api/activities", token: token, json: body)
                    }
                }
                try await group.waitForAll()
            }
            let day =
                try await app.request(.get, "/api/tracking/daily", token: token).jsonObject()["days"]
                as? [[String: Any]]
            #expect(day?.first?["manualSteps"] as? Int == 2000)
            #expect(try await app.engine.replay.run().isEmpty)
        }
    }
}
