import FitCircleAPI
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
/// The SDK's client leaves the operator's operations out, so the answers are read as the server's own schemas.
struct ConsoleTests {
    /// `GET path` as `person`, its 200 read as `Value`.
    static func read<Value: Decodable>(_ app: TestApp, _ path: String, as person: TestPerson, _ type: Value.Type)
        async throws -> Value
    {
        let response = try await app.request(.get, path, token: try await person.token(app))
        #expect(response.status == .ok, "\(path): \(response.text)")
        return try response.decoded(as: Value.self)
    }

    static let paths: [(String, String)] = [
        ("GET", "/api/admin/users?q=luna"), ("GET", "/api/admin/users/x"), ("GET", "/api/admin/jobs"),
        ("POST", "/api/admin/jobs/x/retry"),
        ("GET", "/api/admin/deliveries"), ("GET", "/api/admin/profile"), ("GET", "/api/admin/circles"),
        ("GET", "/api/admin/competitions"),
    ]

    @Test(arguments: Backend.available)
    func everyConsoleReadIsRefusedToAMember(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let member = try await app.person("member@example.com")
            for (method, path) in Self.paths {
                let response = try await app.request(
                    method == "GET" ? .get : .post,
                    path,
                    token: try await member.token(app)
                )
                #expect(response.status == .forbidden, "\(method) \(path): \(response.text)")
            }
            #expect(try await app.request(.get, "/api/admin/jobs").status == .unauthorized)
        }
    }

    @Test(arguments: Backend.available)
    func anOperatorFindsAPersonAndReadsTheirFile(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ops = try await app.operatorPerson()
            let luna = try await app.person("luna.star@example.com")
            let token = try await luna.token(app)
            var named = TestApp.validProfile()
            named["displayName"] = "Luna Star"
            #expect(try await app.request(.put, "/api/user/profile", token: token, json: named).status == .ok)
            #expect(
                try await app.request(.post, "/api/streaks/checkin", token: token, json: ["mood": 4, "energy": 3])
                    .status.code < 300
            )
            try await app.runJobs()

            for query in ["luna", "STAR", "LUNA.STAR@example.com", luna.id] {
                let path = "/api/admin/users?q=\(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
                let found = try await Self.read(app, path, as: ops, Components.Schemas.ConsoleAccounts.self)
                #expect(found.items.map(\.userId) == [luna.id], "\(query): \(found)")
            }
            #expect(
                try await app.request(.get, "/api/admin/users?q=lu", token: try await ops.token(app)).status
                    == .badRequest
            )
            let nobody = try await Self.read(
                app,
                "/api/admin/users?q=nobody",
                as: ops,
                Components.Schemas.ConsoleAccounts.self
            )
            #expect(nobody.items.isEmpty)

            let file = try await Self.read(
                app,
                "/api/admin/users/\(luna.id)",
                as: ops,
                Components.Schemas.ConsoleAccountFile.self
            )
            #expect(file.account.email == "luna.star@example.com" && file.account.role == .member)
            #expect(file.streak.current == 1)
            #expect(file.points.contains { $0.reason == .checkIn }, "\(file.points)")
            // Each notification with the rules its decision went through and its delivery attempts.
            let welcome = try #require(file.notifications.first { $0.notification._type == "welcome" })
            #expect(!welcome.trail.isEmpty)
            #expect(!welcome.deliveries.isEmpty, "\(welcome)")
            #expect(
                try await app.request(.get, "/api/admin/users/unknown", token: try await ops.token(app)).status
                    == .notFound
            )
        }
    }

    @Test(arguments: Backend.available)
    func aFailedJobIsListedAndRetriedOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ops = try await app.operatorPerson()
            let now = app.clock.now
            try await app.store.transaction { tx in
                try await tx.enqueue([JobRecord.test("doomed", runAt: now, maxAttempts: 1)], at: now)
            }
            let runner = JobRunner(
                store: app.store,
                handlers: ["test": { _ in throw FlakyJobError() }],
                clock: app.clock.wallClock,
                logger: Logger(label: "test")
            )
            #expect(try await runner.runDue() == 1)

            let failed = try await Self.read(
                app,
                "/api/admin/jobs?state=failed",
                as: ops,
                Components.Schemas.ConsoleJobs.self
            )
            #expect(failed.counts.failed == 1)
            let job = try #require(failed.items.first)
            #expect(job.dedupeKey == "doomed" && job.state == .failed && job.attempts == 1)
            #expect(job.lastError?.contains("Flaky") == true)

            let retried = try await app.request(
                .post,
                "/api/admin/jobs/\(job.id)/retry",
                token: try await ops.token(app)
            )
            #expect(retried.status == .ok, "\(retried.text)")
            let again = try retried.decoded(as: Components.Schemas.ConsoleJob.self)
            #expect(again.state == .due && again.attempts == 0)
            #expect(
                try await app.request(.post, "/api/admin/jobs/\(job.id)/retry", token: try await ops.token(app)).status
                    == .conflict
            )
            let due = try await Self.read(
                app,
                "/api/admin/jobs?state=due",
                as: ops,
                Components.Schemas.ConsoleJobs.self
            )
            #expect(due.items.contains { $0.id == job.id })
            #expect(due.counts.failed == 0)
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
                try await app.request(.get, "/api/admin/jobs?limit=0", token: try await ops.token(app)).status
                    == .unprocessableContent
            )
        }
    }

    @Test(arguments: Backend.available)
    func theQueueIsReadAPageAtATimeEachJobOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ops = try await app.operatorPerson()
            let now = app.clock.now
            // Five failed jobs, two of them finished at the same instant (the order then goes by id).
            try await app.store.transaction { tx in
                try await tx.enqueue(
                    (0..<5).map { JobRecord.test("doomed-\($0)", runAt: now, maxAttempts: 1) },
                    at: now
                )
            }
            let runner = JobRunner(
                store: app.store,
                handlers: ["test": { _ in throw FlakyJobError() }],
                clock: app.clock.wallClock,
                logger: Logger(label: "test")
            )
            while try await runner.runDue(limit: 2) > 0 { app.clock.advance(by: 1) }
            let expected = try await app.store.read { tx in
                try await tx.console.jobs(in: .failed, at: app.clock.now, after: nil, limit: 200)
            }
            .map(\.id)
            #expect(expected.count == 5)

            var (read, cursor): ([String], String?) = ([], nil)
            repeat {
                let page = try await Self.read(
                    app,
                    "/api/admin/jobs?state=failed&limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""),
                    as: ops,
                    Components.Schemas.ConsoleJobs.self
                )
                read += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil && read.count < 20
            #expect(read == expected, "latest first, each once")
        }
    }

    @Test(arguments: Backend.available)
    func theDeliveryLogIsReadAPageAtATimeEachAttemptOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ops = try await app.operatorPerson()
            for index in 1...4 { _ = try await app.person("p\(index)@example.com") }
            try await app.runJobs()
            typealias Deliveries = Components.Schemas.ConsoleDeliveries
            let all = try await Self.read(app, "/api/admin/deliveries?limit=200", as: ops, Deliveries.self).items
            #expect(all.count >= 5)
            var paged: [String] = []
            var cursor: String?
            repeat {
                let path = "/api/admin/deliveries?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await Self.read(app, path, as: ops, Deliveries.self)
                paged += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(paged == all.map(\.id))
            let first = try #require(all.first)
            #expect(first.notificationType == "welcome" && !first.userId.isEmpty)
            let outcome = first.attempt.outcome
            let filtered = try await Self.read(
                app,
                "/api/admin/deliveries?outcome=\(outcome.rawValue)&limit=200",
                as: ops,
                Deliveries.self
            ).items
            #expect(!filtered.isEmpty && filtered.allSatisfy { $0.attempt.outcome == outcome })

            /// The part of the profile this test looks into.
            struct Shown: Decodable {
                struct Profile: Decodable {
                    struct Streaks: Decodable { var resetAfterMissed: Int? }
                    var streaks: Streaks
                }
                var name: String
                var description: String
                var profile: Profile
            }
            let profile = try await Self.read(app, "/api/admin/profile", as: ops, Shown.self)
            #expect(profile.name == app.engine.profile.name)
            #expect(profile.profile.streaks.resetAfterMissed != nil)
        }
    }

    @Test(arguments: Backend.available)
    func everyCircleAndChallengeIsListedAPageAtATime(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ops = try await app.operatorPerson()
            let ana = try await app.person("ana@example.com", xp: 500)
            var circles: [String] = []
            for index in 1...3 {
                let made = try await app.api(as: ana).createFitCircle(
                    body: .json(.init(name: "Circle \(index)", metric: .steps))
                )
                circles.append(try made.created.body.json.id)
            }
            let challenge = try await app.api(as: ana).createCompetition(
                body: .json(.init(name: "Ten K", _type: .distance, durationDays: 7, stake: 50))
            )
            let challengeID = try challenge.created.body.json.id

            var paged: [String] = []
            var cursor: String?
            repeat {
                let path = "/api/admin/circles?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await Self.read(app, path, as: ops, Components.Schemas.ConsoleCircles.self)
                #expect(page.items.allSatisfy { $0.members == 1 && $0.ownerId == ana.id })
                paged += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            // Each once, in the order of the whole list (ids are time-ordered to the millisecond; the test clock stands still).
            let whole = try await Self.read(app, "/api/admin/circles", as: ops, Components.Schemas.ConsoleCircles.self)
            #expect(paged == whole.items.map(\.id) && Set(paged) == Set(circles))

            let listed = try await Self.read(
                app,
                "/api/admin/competitions",
                as: ops,
                Components.Schemas.ConsoleCompetitions.self
            )
            let row = try #require(listed.items.first)
            #expect(row.id == challengeID && row.status == .active)
            #expect(row.participantCount == 1 && row.stake == 50 && row.escrow == 50)
            #expect(
                try await app.request(.get, "/api/admin/competitions?limit=500", token: try await ops.token(app)).status
                    == .unprocessableContent
            )
        }
    }
}
