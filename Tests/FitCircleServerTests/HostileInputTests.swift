import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import FitCircleDelivery

/// What an attacker or a clumsy client sends: each is refused with a problem naming the field, and the node
/// lives on (a trap in the PostgreSQL driver once took the whole process down for one GET).
struct HostileInputTests {
    @Test(arguments: Backend.available, ["inf|x", "nan|x", "-inf|x", "1e300|x", "-1e300|x", "1e13|x", "0|"])
    func anActivityCursorOutOfRangeIsRefused(_ backend: Backend, cursor: String) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let encoded =
                Data(cursor.utf8).base64EncodedString()
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let response = try await app.request(.get, "/api/activities?cursor=\(encoded)", token: token)
            #expect(response.status == .unprocessableContent, "\(response.text)")
            #expect(try response.problemType() == "/problems/validation-failed")
            #expect(try response.problem().fields.first == "cursor")
            #expect(try await app.request(.get, "/api/activities", token: token).status == .ok)
        }
    }

    /// PostgreSQL's text cannot hold NUL: an id or a cursor holding one once failed deep in a query (500).
    @Test(arguments: Backend.available)
    func aNulCharacterInThePathOrTheQueryIsABadRequest(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            for path in ["/api/users/%00", "/api/fitcircles/a%00b", "/api/competitions/%00/leaderboard"] {
                let response = try await app.request(.get, path, token: token)
                #expect(response.status == .badRequest, "\(path): \(response.text)")
                #expect(try response.problemType() == "/problems/bad-request")
            }
            for (path, field) in [("/api/users/search?q=abc%00def", "q"), ("/api/points/ledger?cursor=%00", "cursor")] {
                let response = try await app.request(.get, path, token: token)
                #expect(response.status == .badRequest, "\(path): \(response.text)")
                #expect(
                    try response.problem().fields.first == field,
                    "\(path): \(response.text)"
                )
            }
            #expect(try await app.request(.get, "/api/users/search?q=abcdef", token: token).status == .ok)
        }
    }

    @Test(arguments: Backend.available)
    func aMegabyteNameThatIsOneCharacterIsRefusedAndChangesNothing(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let before = try await app.request(.get, "/api/user/profile", token: token).text
            for name in ["A" + String(repeating: "\u{301}", count: 1_000_000), "\u{202E}anA", "An\u{0}a"] {
                var form = TestApp.validProfile()
                form["displayName"] = name
                let response = try await app.request(.put, "/api/user/profile", token: token, json: form)
                // NUL is refused while the body is read (400), the rest by the name's rules (422): both name the field.
                #expect(
                    response.status == (name.contains("\u{0}") ? .badRequest : .unprocessableContent),
                    "\(response.text)"
                )
                #expect(
                    try response.problem().fields == ["displayName"]
                )
            }
            #expect(try await app.request(.get, "/api/user/profile", token: token).text == before)

            var form = TestApp.validProfile()
            form["displayName"] = " Ame\u{301}lie 👩‍💻 "
            #expect(try await app.request(.put, "/api/user/profile", token: token, json: form).status == .ok)
            #expect(try await app.api(token).getProfile().ok.body.json.displayName == "Am\u{E9}lie 👩‍💻")
        }
    }

    @Test(arguments: Backend.available)
    func aSuggestedNameIsCutToFitNotTakenWhole(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let response = try await app.request(
                .post,
                "/api/auth/dev",
                json: [
                    "email": "zed@example.com",
                    "displayName": "\u{202E}Z" + String(repeating: "\u{301}", count: 20_000),
                ]
            )
            #expect(response.status == .ok)
            let name = try response.decoded(as: Components.Schemas.AuthSession.self).user.displayName
            #expect(name.utf8.count <= 200 && !name.unicodeScalars.contains("\u{202E}"))
            let email = try await app.request(.post, "/api/auth/dev", json: ["email": "a\u{202E}@example.com"])
            #expect(email.status == .unprocessableContent)
        }
    }

    @Test(arguments: Backend.available)
    func circleTextIsBoundedInBytes(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let refused = try await app.request(
                .post,
                "/api/fitcircles",
                token: token,
                json: [
                    "name": "W" + String(repeating: "\u{308}", count: 300), "description": "x\u{202E}y",
                    "metric": "steps",
                ]
            )
            #expect(refused.status == .unprocessableContent)
            #expect(
                try refused.problem().fields == [
                    "name", "description",
                ]
            )
            #expect(try await app.api(token).listFitCircles().ok.body.json.items.isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func aRouteIsAPolylineOfBoundedSizeKeptOutOfLists(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            func run(_ id: String, route: String) -> [String: Any] {
                [
                    "clientEventId": id, "type": "workout", "occurredAt": iso8601(app.clock.now),
                    "workout": ["type": "running", "durationSeconds": 1800, "distanceMeters": 5000, "route": route],
                ]
            }
            for route in [String(repeating: "?", count: 70_000), "not a polyline", "~~~~~~~~~~~~~~~"] {
                let response = try await app.request(
                    .post,
                    "/api/activities",
                    token: token,
                    json: run("bad", route: route)
                )
                #expect(response.status == .unprocessableContent)
                #expect(try response.problem().fields == ["route"])
            }
            let route = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
            let created = try await app.request(
                .post,
                "/api/activities",
                token: token,
                json: run("run-1", route: route)
            ).decoded(as: Components.Schemas.Activity.self)
            let one = try await app.api(token).getActivity(path: .init(id: created.id)).ok.body.json
            #expect(one.workout?.value1.route == route)
            let listed = try #require(try await app.api(token).listActivities().ok.body.json.items.first)
            #expect(listed.workout != nil && listed.workout?.value1.route == nil)
            #expect(listed.workout?.value1.durationSeconds == 1800)
        }
    }
}

/// What an attacker found in the social half (issue 41): each finding fails here before its fix.
struct SocialHalfFindingsTests {
    /// A ledger line of a stake, a refund or a payout once trapped in the mapping (the document's enum lacked
    /// `stake` and `stake_refund`): one GET took down the node, and every node after it.
    @Test(arguments: Backend.available)
    func aStakersLedgerAndTheirFileAreRead(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ops = try await app.operatorPerson()
            let ana = try await app.person("ana@example.com")
            let token = try await ana.token(app)
            #expect(
                try await app.request(.post, "/api/streaks/checkin", token: token, json: ["mood": 4, "energy": 3])
                    .status.code < 300
            )
            let created = try await app.request(
                .post,
                "/api/competitions",
                token: token,
                json: ["name": "x", "type": "distance", "goal": "most", "durationDays": 1, "stake": 1]
            )
            #expect(created.status == .created, "\(created.text)")
            let ledger = try await app.request(.get, "/api/points/ledger", token: token)
            #expect(ledger.status == .ok, "\(ledger.text)")
            let items = try ledger.decoded(as: Components.Schemas.PointsLedgerPage.self).items
            let stake = try #require(items.first { $0.reason == .stake }, "\(ledger.text)")
            #expect(stake.amount == -1)
            #expect(stake.detail.challengeId == (try created.decoded(as: Components.Schemas.Competition.self).id))
            let file = try await app.request(.get, "/api/admin/users/\(ana.id)", token: try await ops.token(app))
            #expect(file.status == .ok, "\(file.text)")
        }
    }

    /// PostgreSQL's text cannot hold NUL: inside a JSON body it was a 500 (and the 500's log line held the
    /// bearer token). Refused at decoding, naming the field, for every body.
    /// A megabyte of members no schema names would have been a problem document listing each, larger than
    /// the request: the answer lists the first 100 and counts the rest.
    @Test(arguments: Backend.available)
    func aBodyOfThousandsOfUnknownMembersIsAnsweredInFewLines(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser("ana@example.com")
            var body: [String: Any] = ["push": true]
            for index in 0..<5_000 { body["x\(index)"] = index }
            let response = try await app.request(.patch, "/api/notifications/preferences", token: token, json: body)
            #expect(response.status == .unprocessableContent)
            let problem = try response.jsonObject()
            #expect((problem["errors"] as? [Any])?.count == 100, "\(response.text.prefix(300))")
            #expect((problem["detail"] as? String)?.contains("and 4900 more") == true)
            #expect(response.text.utf8.count < 32_768, "\(response.text.utf8.count) bytes")
        }
    }

    @Test(arguments: Backend.available)
    func aNulCharacterInABodyIsABadRequestNamingTheField(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let cases: [(String, String, [String: Any], String)] = [
                ("/api/fitcircles/join", "code", ["code": "a\u{0}b"], "code"),
                ("/api/friends/request", "userId", ["userId": "\u{0}"], "userId"),
                ("/api/friends/blocks", "userId", ["userId": "x\u{0}"], "userId"),
                ("/api/notifications/register", "token", ["platform": "ios", "token": "ab\u{0}cd"], "token"),
                (
                    "/api/activities/batch", "events", ["events": [["clientEventId": "a\u{0}", "type": "app_open"]]],
                    "events[0].clientEventId"
                ),
            ]
            for (path, _, body, field) in cases {
                let response = try await app.request(.post, path, token: token, json: body)
                #expect(response.status == .badRequest, "\(path): \(response.text)")
                let fields = (try response.problem().fields)
                #expect(fields == [field], "\(path): \(response.text)")
            }
        }
    }

    /// famefit: workouts backdated to any day since 2000 earned full XP (867 XP for a 6-hour walk ten years
    /// back; a batch of 100 minted 86,700 XP to stake). A late input is tracked and counted, and earns 0.
    @Test(arguments: Backend.available)
    func lateDataMintsNoXP(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "famefit") { app async throws in
            let token = try await app.onboardedUser()
            func walk(_ id: String, daysAgo: Double) -> [String: Any] {
                [
                    "clientEventId": id, "type": "workout", "source": "app",
                    "occurredAt": iso8601(app.clock.now.addingTimeInterval(-daysAgo * 86_400)),
                    "workout": ["type": "walking", "durationSeconds": 6 * 3_600],
                ]
            }
            let events = [
                walk("decade", daysAgo: 3_650), walk("month", daysAgo: 30), walk("week", daysAgo: 8),
                walk("recent", daysAgo: 6),
            ]
            let batch = try await app.request(.post, "/api/activities/batch", token: token, json: ["events": events])
            #expect(batch.status.code < 300, "\(batch.text)")
            let ledger = try await app.api(token).getPointsLedger(query: .init(limit: 50)).ok.body.json.items
            let workouts = ledger.filter { $0.reason == .workout }
            #expect(workouts.count == 4, "every input has its line")
            let late = workouts.filter { $0.detail.late == true }
            #expect(late.count == 3 && late.allSatisfy { $0.amount == 0 }, "\(workouts)")
            #expect(workouts.filter { $0.amount > 0 }.count == 1, "only the walk of 6 days ago earns")
            let stats = try await app.api(token).getUserStats().ok.body.json.points
            #expect(stats.totalPoints <= 1_500 + 10, "at most a day's maximum and the first-workout badge: \(stats)")
            #expect(try await app.replayDifferences() == [])
        }
    }

    /// A private workout moved its owner's total on a challenge's board, telling everyone there its exact
    /// distance. It counts for its owner alone; turning it private or back moves the board with it.
    @Test(arguments: Backend.available)
    func aPrivateWorkoutDoesNotCountWhereOthersSee(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com")
            let ben = try await app.person("ben@example.com")
            let created = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token(app),
                json: [
                    "name": "Distance", "type": "distance", "goal": "most", "durationDays": 7,
                ]
            ).decoded(as: Components.Schemas.Competition.self)
            let (id, code) = (created.id, try #require(created.joinCode))
            #expect(
                try await app.request(
                    .post,
                    "/api/competitions/\(id)/join",
                    token: try await ben.token(app),
                    json: ["code": code]
                ).status == .ok
            )
            app.clock.advance(by: 3_600)
            var shared = app.workout("shared", km: 5, minutes: 30, startedMinutesAgo: 50)
            shared.visibility = .friends
            var hidden = app.workout("hidden", km: 3, minutes: 20, startedMinutesAgo: 20)
            hidden.visibility = ._private
            var ids: [String] = []
            for run in [shared, hidden] {
                ids.append(try await app.api(as: ben).recordActivity(body: .json(run)).created.body.json.id)
            }
            func bensValue() async throws -> Double? {
                let board = try await app.api(as: ana).getCompetitionLeaderboard(path: .init(id: id)).ok.body.json
                return board.rows.first { $0.userId == ben.id }?.value
            }
            #expect(try await bensValue() == 5, "the private 3 km do not show")
            let turned = try await app.request(
                .put,
                "/api/activities/\(ids[0])/visibility",
                token: try await ben.token(app),
                json: ["visibility": "private"]
            )
            #expect(turned.status == .ok, "\(turned.text)")
            #expect(try await bensValue() == nil, "nothing of his counts where Ana sees it")
            _ = try await app.request(
                .put,
                "/api/activities/\(ids[1])/visibility",
                token: try await ben.token(app),
                json: ["visibility": "friends"]
            )
            #expect(try await bensValue() == 3)
            // For himself, both runs count: his day has the 8 km.
            let days = try await app.request(.get, "/api/tracking/daily", token: try await ben.token(app))
            #expect(days.status == .ok && days.text.contains("\"workouts\":2"), "\(days.text)")
        }
    }

    /// After Ana blocks Bo, she does not exist for him anywhere: not her badges, record or rivalry, not in
    /// a shared circle's board, members and feed (she is "A member" there), not her standing; he cannot
    /// encourage her, see her public circle or challenge, or join it; and his overtaking her tells her nothing.
    @Test(arguments: Backend.available)
    func aBlockHidesTheBlockerEverywhere(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo) = (try await app.person("ana@example.com"), try await app.person("bo@example.com"))
            let (anaToken, boToken) = (try await ana.token(app), try await bo.token(app))
            let shared = try await app.createCircle(
                by: ana,
                ["name": "Shared", "metric": "steps", "privacy": "public"]
            ).id
            let hers = try await app.createCircle(by: ana, ["name": "Hers", "metric": "steps", "privacy": "public"]).id
            let code = try #require(
                try await app.api(anaToken).getFitCircle(path: .init(id: shared)).ok.body.json.joinCode
            )
            #expect(
                try await app.request(.post, "/api/fitcircles/join", token: boToken, json: ["code": code]).status == .ok
            )
            _ = try await app.claim(9_000, in: shared, as: ana)
            let challenge = try await app.request(
                .post,
                "/api/competitions",
                token: anaToken,
                json: ["name": "Hers", "type": "distance", "goal": "most", "durationDays": 3, "visibility": "public"]
            )
            let challengeID = try challenge.decoded(as: Components.Schemas.Competition.self).id
            let feed = try await app.api(boToken).getFitCircleFeed(path: .init(id: shared)).ok.body.json
            let herItem = try #require(feed.items.first { $0.actorId == ana.id }?.id)

            #expect(
                try await app.request(.post, "/api/friends/blocks", token: anaToken, json: ["userId": bo.id]).status
                    == .noContent
            )

            for path in [
                "/api/users/\(ana.id)", "/api/users/\(ana.id)/badges", "/api/users/\(ana.id)/challenge-record",
                "/api/users/\(ana.id)/rivalry",
                "/api/fitcircles/\(shared)/leaderboard/user/\(ana.id)", "/api/fitcircles/\(hers)",
                "/api/competitions/\(challengeID)",
            ] {
                let response = try await app.request(.get, path, token: boToken)
                #expect(response.status == .notFound, "\(path): \(response.status) \(response.text)")
            }
            let encouraged = try await app.request(
                .post,
                "/api/fitcircles/\(shared)/feed/\(herItem)/encourage",
                token: boToken,
                json: [:]
            )
            #expect(encouraged.status == .notFound, "\(encouraged.text)")
            let joined = try await app.request(
                .post,
                "/api/competitions/\(challengeID)/join",
                token: boToken,
                json: [:]
            )
            #expect(joined.status == .notFound, "\(joined.text)")
            let listed = try await app.request(.get, "/api/competitions?scope=open", token: boToken)
            #expect(!listed.text.contains(challengeID), "\(listed.text)")

            // In the circle they share she is "A member" to him: on the board, in the members and in the feed.
            let board = try await app.request(
                .get,
                "/api/fitcircles/\(shared)/leaderboard?period=weekly",
                token: boToken
            )
            #expect(
                board.status == .ok && !board.text.contains(ana.id) && !board.text.contains("\"ana\""),
                "\(board.text)"
            )
            let members = try await app.request(.get, "/api/fitcircles/\(shared)/members", token: boToken)
            #expect(members.status == .ok && !members.text.contains(ana.id), "\(members.text)")
            let seen = try await app.request(.get, "/api/fitcircles/\(shared)/feed", token: boToken)
            #expect(seen.status == .ok && !seen.text.contains(ana.id), "\(seen.text)")
            // She still sees her own things.
            #expect(try await app.request(.get, "/api/fitcircles/\(hers)", token: anaToken).status == .ok)
        }
    }

    /// A removed member's open circle stream kept carrying board and feed events; it ends now, and carries
    /// nothing that happened after the removal.
    @Test(arguments: Backend.available)
    func aRemovedMembersStreamEndsAndHearsNothingMore(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo) = (try await app.person(named: "Ana"), try await app.person(named: "Bo"))
            let circle = try await app.createCircle(
                by: ana,
                ["name": "Live", "metric": "steps", "privacy": "private"]
            )
            let id = circle.id
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await bo.token(app),
                    json: ["code": (circle.joinCode ?? "")]
                ).status == .ok
            )
            let started = ContinuousClock.now
            async let streamed = app.request(
                .get,
                "/api/fitcircles/\(id)/stream?seconds=20",
                token: try await bo.token(app)
            )
            for _ in 0..<300 where app.engine.circles.events.listeners(of: .circle(FitCircle.ID(id))) == 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(
                try await app.request(
                    .delete,
                    "/api/fitcircles/\(id)/members/\(bo.id)",
                    token: try await ana.token(app)
                ).status == .noContent
            )
            _ = try await app.claim(9_100, in: id, as: ana)
            let response = try await streamed
            #expect(ContinuousClock.now - started < .seconds(15), "the stream lasted its whole 20 s")
            let ranks = try ServerSentEvent.all(in: response.text).filter { $0.event == "rank" }.map {
                try $0.decoded(as: Components.Schemas.RankUpdate.self)
            }
            #expect(!ranks.contains { $0.value == 9_100 }, "\(response.text)")
            #expect(!response.text.contains("9,100"), "\(response.text)")
        }
    }

    /// 500 analytics events a request at the request rate was about 200 MB a minute for one account: a
    /// person's app events are capped per 24 hours, and kept 90 days.
    @Test(arguments: Backend.available)
    func appAnalyticsEventsHaveADailyQuotaAndARetention(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let person = try await app.person("quota@example.com")
            let token = try await person.token(app)
            func batch(_ round: Int) -> [String: Any] {
                [
                    "events": (0..<EventInput.maximumBatch).map {
                        [
                            "clientEventId": "e\(round)-\($0)", "name": "screen_viewed",
                            "occurredAt": iso8601(app.clock.now), "properties": ["screen": "today"],
                        ]
                    }
                ]
            }
            let rounds = EventInput.dailyQuota / EventInput.maximumBatch
            for round in 0..<rounds {
                let response = try await app.request(.post, "/api/events", token: token, json: batch(round))
                #expect(response.status.code < 300, "\(round): \(response.text)")
            }
            let refused = try await app.request(.post, "/api/events", token: token, json: batch(rounds))
            #expect(refused.status == .tooManyRequests, "\(refused.text)")
            #expect(refused.headers[.retryAfter] != nil)
            let stored = {
                try await app.store.read { tx in
                    try await tx.events.appEventCount(
                        of: User.ID(person.id),
                        receivedSince: Date(timeIntervalSince1970: 0)
                    )
                }
            }
            #expect(try await stored() == EventInput.dailyQuota, "the refused batch recorded nothing")

            app.clock.advance(by: 25 * 3_600)
            #expect(
                try await app.request(.post, "/api/events", token: try await person.token(app), json: batch(rounds))
                    .status
                    .code < 300,
                "a new day, a new quota"
            )
            app.clock.advance(by: EventInput.retention + 3_600)
            let purged = try await app.engine.housekeeping.run()
            #expect(purged.appEvents == EventInput.dailyQuota + EventInput.maximumBatch)
            #expect(try await stored() == 0)
        }
    }

    /// Operators' webhooks delivered to loopback and to the cloud metadata service (169.254.169.254): a
    /// server not told otherwise refuses such a URL, and does not call a name that resolves there.
    @Test(arguments: Backend.available)
    func aWebhookMayNotPointAtThisMachineOrAPrivateNetwork(_ backend: Backend) async throws {
        let clock = TestClock()
        let strict = Transports(
            webhookSender: WebhookSender(http: .endpoints, clock: clock.wallClock, allowPrivateTargets: false)
        )
        try await withTestApp(backend, clock: clock, transports: strict) { app async throws in
            let ops = try await app.operatorPerson()
            for url in [
                "http://127.0.0.1:9/hook", "http://169.254.169.254/latest/meta-data", "http://[::1]:8080/",
                "http://localhost/x",
                "http://10.1.2.3/", "http://192.168.0.10/", "http://[fd00::1]/", "http://[::ffff:127.0.0.1]/",
                "http://0.0.0.0/",
            ] {
                let refused = try await app.request(
                    .post,
                    "/api/admin/webhooks",
                    token: try await ops.token(app),
                    json: ["url": url, "events": ["goal_completed"]]
                )
                #expect(
                    refused.status == .unprocessableContent && refused.text.contains("\"url\""),
                    "\(url): \(refused.text)"
                )
            }
            let allowed = try await app.request(
                .post,
                "/api/admin/webhooks",
                token: try await ops.token(app),
                json: ["url": "https://hooks.example.com/fitcircle", "events": ["goal_completed"]]
            )
            #expect(allowed.status == .created, "\(allowed.text)")
            // A name registered elsewhere that resolves here is not called either: delivery resolves it first.
            let attempt = await WebhookSender(http: .endpoints, clock: clock.wallClock).send(
                Data("{}".utf8),
                to: "http://localhost.:9/hook",
                secret: Data("s".utf8)
            )
            #expect(
                attempt.outcome == .permanent(reason: "localhost. is on this machine or a private network"),
                "\(attempt)"
            )
            #expect(WebhookSender.addresses(of: "localhost").contains { PrivateAddress.isPrivate(address: $0) })
            #expect(await WebhookSender.resolvesPrivately("localhost"))
        }
    }

    /// A webhook's public name could answer with a redirect into this machine's network, past the check of
    /// where the name resolves: no redirect is followed. A refused connection is a retryable attempt at once,
    /// not one retried for the call's whole 10 seconds while it holds a worker.
    @Test
    func aWebhookIsNeverRedirectedAndARefusedOneFailsAtOnce() async throws {
        let privateCalls = Mutex(0)
        let port = Mutex(0)
        let router = Router()
        router.post("/hook") { _, _ -> Response in
            Response(status: .found, headers: [.location: "http://127.0.0.1:\(port.withLock { $0 })/private"])
        }
        // A 302 is followed with a GET.
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/private", method: method) { _, _ -> Response in
                privateCalls.withLock { $0 += 1 }
                return Response(status: .noContent)
            }
        }
        try await Application(router: router, logger: Logger(label: "redirecting-endpoint")).test(.live) { client in
            port.withLock { $0 = client.port ?? 0 }
            // Loopback stands for a public address here: the sender is told private targets are allowed.
            let sender = WebhookSender(http: .endpoints, clock: TestClock().wallClock, allowPrivateTargets: true)
            let redirected = await sender.send(
                Data("{}".utf8),
                to: "http://127.0.0.1:\(client.port!)/hook",
                secret: Data("s".utf8)
            )
            #expect(redirected.outcome == .permanent(reason: "HTTP 302"), "\(redirected)")
            #expect(privateCalls.withLock { $0 } == 0)
            let refused = await sender.send(Data("{}".utf8), to: "http://127.0.0.1:9/hook", secret: Data("s".utf8))
            guard case .retryable = refused.outcome else {
                Issue.record("a refused connection is retryable: \(refused)")
                return
            }
            #expect(refused.latencyMilliseconds < 5_000, "\(refused)")
        }
    }

    /// Refusals printed Swift's type names ("Cannot initialize WorkoutTypesPayloadPayload from invalid String
    /// value swim"): they say which value is not taken, and which are, in the API's words.
    @Test(arguments: Backend.available)
    func aRefusedEnumValueIsNamedWithoutSwiftTypeNames(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let body = try await app.request(
                .post,
                "/api/competitions",
                token: token,
                json: ["name": "x", "type": "distance", "durationDays": 1, "workoutTypes": ["swim"]]
            )
            let query = try await app.request(.get, "/api/notifications/history?channel=sms", token: token)
            for (response, value, taken) in [(body, "swim", "running"), (query, "sms", "push")] {
                #expect(response.status == .unprocessableContent, "\(response.text)")
                #expect(
                    response.text.contains("must be one of ") && response.text.contains("(not '\(value)')")
                        && response.text.contains(taken) && !response.text.contains("Payload"),
                    "\(response.text)"
                )
            }
        }
    }
}
