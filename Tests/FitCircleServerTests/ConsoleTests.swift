import FitCircleCore
import FitCircleEngine
import FitCircleJobs
import FitCircleStore
import FitCircleTesting
import Foundation
import Logging
import Testing

/// The operator console's API (`/api/admin/users`, `/jobs`, `/deliveries`, `/profile`): operators only, a
/// person's file with their ledgers and notifications, the queue with retry, the delivery log a page at a time.
struct ConsoleTests {
    static let paths: [(String, String)] = [
        ("GET", "/api/admin/users?q=luna"), ("GET", "/api/admin/users/x"), ("GET", "/api/admin/jobs"),
        ("POST", "/api/admin/jobs/x/retry"),
        ("GET", "/api/admin/deliveries"), ("GET", "/api/admin/profile"), ("GET", "/api/admin/circles"),
        ("GET", "/api/admin/competitions"),
    ]

    @Test(arguments: Backend.available)
    func everyConsoleReadIsRefusedToAMember(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let member = try await ChallengeTests.person(app, "member@example.com")
            for (method, path) in Self.paths {
                let response = try await app.request(
                    method == "GET" ? .get : .post,
                    path,
                    token: try await member.token
                )
                #expect(response.status == .forbidden, "\(method) \(path): \(response.text)")
            }
            #expect(try await app.request(.get, "/api/admin/jobs").status == .unauthorized)
        }
    }

    @Test(arguments: Backend.available)
    func anOperatorFindsAPersonAndReadsTheirFile(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ops = try await ExperimentsTests.operatorPerson(app)
            let luna = try await ChallengeTests.person(app, "luna.star@example.com")
            let token = try await luna.token
            var named = TestApp.validProfile()
            named["displayName"] = "Luna Star"
            #expect(try await app.request(.put, "/api/user/profile", token: token, json: named).status == .ok)
            #expect(
                try await app.request(.post, "/api/streaks/checkin", token: token, json: ["mood": 4, "energy": 3])
                    .status.code < 300
            )
            try await DeliveryTests.runJobs(app)

            for query in ["luna", "STAR", "LUNA.STAR@example.com", luna.id] {
                let found = try await app.request(
                    .get,
                    "/api/admin/users?q=\(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                    token: try await ops.token
                )
                let items = try found.jsonObject()["items"] as? [[String: Any]]
                #expect(items?.map { $0["userId"] as? String } == [luna.id], "\(query): \(found.text)")
            }
            #expect(
                try await app.request(.get, "/api/admin/users?q=lu", token: try await ops.token).status == .badRequest
            )
            let nobody = try await app.request(.get, "/api/admin/users?q=nobody", token: try await ops.token)
                .jsonObject()
            #expect((nobody["items"] as? [Any])?.isEmpty == true)

            let file = try await app.request(.get, "/api/admin/users/\(luna.id)", token: try await ops.token)
                .jsonObject()
            let account = try #require(file["account"] as? [String: Any])
            #expect(account["email"] as? String == "luna.star@example.com" && account["role"] as? String == "member")
            #expect((file["streak"] as? [String: Any])?["current"] as? Int == 1)
            let points = try #require(file["points"] as? [[String: Any]])
            #expect(points.contains { $0["reason"] as? String == "check_in" }, "\(points)")
            // Each notification with the rules its decision went through and its delivery attempts.
            let notifications = try #require(file["notifications"] as? [[String: Any]])
            let welcome = try #require(
                notifications.first { ($0["notification"] as? [String: Any])?["type"] as? String == "welcome" }
            )
            #expect((welcome["trail"] as? [String])?.isEmpty == false)
            #expect((welcome["deliveries"] as? [[String: Any]])?.isEmpty == false, "\(welcome)")
            #expect(
                try await app.request(.get, "/api/admin/users/unknown", token: try await ops.token).status == .notFound
            )
        }
    }

    @Test(arguments: Backend.available)
    func aFailedJobIsListedAndRetriedOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ops = try await ExperimentsTests.operatorPerson(app)
            let now = app.clock.now
            try await app.store.transaction { tx in
                try await tx.enqueue([JobsTests.job("doomed", runAt: now, maxAttempts: 1)], at: now)
            }
            let runner = JobRunner(
                store: app.store,
                handlers: ["test": { _ in throw JobsTests.Flaky() }],
                clock: app.clock.wallClock,
                logger: Logger(label: "test")
            )
            #expect(try await runner.runDue() == 1)

            let failed = try await app.request(.get, "/api/admin/jobs?state=failed", token: try await ops.token)
                .jsonObject()
            #expect((failed["counts"] as? [String: Int])?["failed"] == 1)
            let job = try #require((failed["items"] as? [[String: Any]])?.first)
            #expect(
                job["dedupeKey"] as? String == "doomed" && job["state"] as? String == "failed"
                    && job["attempts"] as? Int == 1
            )
            #expect((job["lastError"] as? String)?.contains("Flaky") == true)

            let id = try #require(job["id"] as? String)
            let retried = try await app.request(.post, "/api/admin/jobs/\(id)/retry", token: try await ops.token)
            #expect(retried.status == .ok, "\(retried.text)")
            #expect(
                try retried.jsonObject()["state"] as? String == "due" && retried.jsonObject()["attempts"] as? Int == 0
            )
            #expect(
                try await app.request(.post, "/api/admin/jobs/\(id)/retry", token: try await ops.token).status
                    == .conflict
            )
            let due = try await app.request(.get, "/api/admin/jobs?state=due", token: try await ops.token).jsonObject()
            #expect((due["items"] as? [[String: Any]])?.contains { $0["id"] as? String == id } == true)
            #expect((due["counts"] as? [String: Int])?["failed"] == 0)
            // The next worker runs it again.
            let healed = JobRunner(
                store: app.store,
                handlers: ["test": { _ in }],
                clock: app.clock.wallClock,
                logger: Logger(label: "test")
            )
            #expect(try await healed.runDue() == 1)
            #expect(try await app.store.read { tx in try await tx.jobs.job(withDedupeKey: "doomed") }?.status == .done)
            #expect(
                try await app.request(.get, "/api/admin/jobs?limit=0", token: try await ops.token).status
                    == .unprocessableContent
            )
        }
    }

    @Test(arguments: Backend.available)
    func theDeliveryLogIsReadAPageAtATimeEachAttemptOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ops = try await ExperimentsTests.operatorPerson(app)
            for index in 1...4 { _ = try await ChallengeTests.person(app, "p\(index)@example.com") }
            try await DeliveryTests.runJobs(app)
            let all =
                try await app.request(.get, "/api/admin/deliveries?limit=200", token: try await ops.token).jsonObject()[
                    "items"
                ] as? [[String: Any]] ?? []
            #expect(all.count >= 5)
            var paged: [String] = []
            var cursor: String?
            repeat {
                let page = try await app.request(
                    .get,
                    "/api/admin/deliveries?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""),
                    token: try await ops.token
                ).jsonObject()
                paged += (page["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                cursor = page["nextCursor"] as? String
            } while cursor != nil
            #expect(paged == all.compactMap { $0["id"] as? String })
            let first = try #require(all.first)
            #expect(first["notificationType"] as? String == "welcome" && first["userId"] is String)
            let outcome = try #require((first["attempt"] as? [String: Any])?["outcome"] as? String)
            let filtered =
                try await app.request(
                    .get,
                    "/api/admin/deliveries?outcome=\(outcome)&limit=200",
                    token: try await ops.token
                ).jsonObject()["items"] as? [[String: Any]]
            #expect(
                filtered?.isEmpty == false
                    && filtered?.allSatisfy { ($0["attempt"] as? [String: Any])?["outcome"] as? String == outcome }
                        == true
            )

            let profile = try await app.request(.get, "/api/admin/profile", token: try await ops.token).jsonObject()
            #expect(profile["description"] is String)
            #expect(profile["name"] as? String == app.engine.profile.name)
            #expect(((profile["profile"] as? [String: Any])?["streaks"] as? [String: Any])?["resetAfterMissed"] != nil)
        }
    }

    @Test(arguments: Backend.available)
    func everyCircleAndChallengeIsListedAPageAtATime(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ops = try await ExperimentsTests.operatorPerson(app)
            let ana = try await ChallengeTests.person(app, "ana@example.com", xp: 500)
            var circles: [String] = []
            for index in 1...3 {
                let made = try await app.request(
                    .post,
                    "/api/fitcircles",
                    token: try await ana.token,
                    json: ["name": "Circle \(index)", "metric": "steps"]
                )
                circles.append(try #require(try made.jsonObject()["id"] as? String, "\(made.text)"))
            }
            let challenge = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token,
                json: ["name": "Ten K", "type": "distance", "durationDays": 7, "stake": 50]
            )
            let challengeID = try #require(try challenge.jsonObject()["id"] as? String, "\(challenge.text)")

            var paged: [String] = []
            var cursor: String?
            repeat {
                let page = try await app.request(
                    .get,
                    "/api/admin/circles?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""),
                    token: try await ops.token
                ).jsonObject()
                let items = page["items"] as? [[String: Any]] ?? []
                #expect(items.allSatisfy { $0["members"] as? Int == 1 && $0["ownerId"] as? String == ana.id })
                paged += items.compactMap { $0["id"] as? String }
                cursor = page["nextCursor"] as? String
            } while cursor != nil
            // Each once, in the order of the whole list (ids are time-ordered to the millisecond; the test clock stands still).
            let whole =
                try await app.request(.get, "/api/admin/circles", token: try await ops.token).jsonObject()["items"]
                as? [[String: Any]]
            #expect(paged == whole?.compactMap { $0["id"] as? String } && Set(paged) == Set(circles))

            let listed =
                try await app.request(.get, "/api/admin/competitions", token: try await ops.token).jsonObject()["items"]
                as? [[String: Any]]
            let row = try #require(listed?.first)
            #expect(row["id"] as? String == challengeID && row["status"] as? String == "active")
            #expect(row["participantCount"] as? Int == 1 && row["stake"] as? Int == 50 && row["escrow"] as? Int == 50)
            #expect(
                try await app.request(.get, "/api/admin/competitions?limit=500", token: try await ops.token).status
                    == .unprocessableContent
            )
        }
    }
}
