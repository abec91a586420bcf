import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

/// Challenges and competitions through the API (specs 002 and 004 R8, R9, R16): rules scored from real
/// workouts, stakes held in escrow and paid once, access by visibility, code and invitation.
struct ChallengeTests {
    struct Person {
        var email: String
        var id: String
        var app: TestApp

        /// Signed in afresh: the test clock outruns access tokens.
        var token: String {
            get async throws { try await self.app.devSignIn(self.email)["accessToken"] as! String }
        }
    }

    static func person(_ app: TestApp, _ email: String, zone: String = "Europe/Paris", xp: Int = 0) async throws
        -> Person
    {
        let token = try await app.onboardedUser(email, timeZone: zone)
        let id = try #require((try await app.devSignIn(email)["user"] as? [String: Any])?["id"] as? String)
        if xp > 0 {
            let now = app.clock.now
            try await app.store.transaction { tx in
                try await tx.points.append(
                    [
                        PointsLine(
                            id: .init("seed-\(id)"),
                            date: LocalDate(now, in: .gmt),
                            amount: xp,
                            reason: .goalMet,
                            sourceKey: "seed",
                            createdAt: now
                        )
                    ],
                    of: User.ID(id)
                )
                try await tx.points.save(RewardStats(totalPoints: xp, level: 1), of: User.ID(id), at: now)
            }
        }
        _ = token
        return Person(email: email, id: id, app: app)
    }

    static func befriend(_ app: TestApp, _ one: Person, _ other: Person) async throws {
        #expect(
            try await app.request(.post, "/api/friends/request", token: try await one.token, json: ["userId": other.id])
                .status.code < 300
        )
        #expect(
            try await app.request(.post, "/api/friends/accept", token: try await other.token, json: ["userId": one.id])
                .status.code < 300
        )
    }

    static func run(
        _ app: TestApp,
        _ id: String,
        km: Double,
        minutes: Double,
        startedMinutesAgo: Double,
        type: String = "running"
    ) -> [String: Any] {
        [
            "clientEventId": id, "type": "workout", "source": "app",
            "occurredAt": ActivityLedgerTests.iso(app.clock.now.addingTimeInterval(-startedMinutesAgo * 60)),
            "workout": ["type": type, "durationSeconds": minutes * 60, "distanceMeters": km * 1000],
        ]
    }

    static func balance(_ app: TestApp, _ person: Person) async throws -> Int {
        try await app.store.read { tx in try await tx.points.stats(of: User.ID(person.id))?.totalPoints ?? 0 }
    }

    static func rows(_ board: [String: Any]) -> [[String: Any]] { board["rows"] as? [[String: Any]] ?? [] }

    @Test(arguments: Backend.available)
    func spec002_fiveKFaceOff_isWonByWhoReached5kmFirst_andTheWinnerTakesTheStakes(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await Self.person(app, "ana@example.com", xp: 300)
            let ben = try await Self.person(app, "ben@example.com", xp: 300)
            try await Self.befriend(app, ana, ben)
            let created = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token,
                json: [
                    "name": "5K Face-Off", "type": "distance", "goal": "first_to", "target": 5, "durationDays": 7,
                    "stake": 100, "invitees": [ben.id],
                ]
            )
            #expect(created.status == .created, "\(created.text)")
            let challenge = try created.jsonObject()
            let id = try #require(challenge["id"] as? String)
            #expect(
                challenge["escrow"] as? Int == 100 && challenge["myState"] as? String == "joined"
                    && challenge["status"] as? String == "active"
            )
            #expect(try await Self.balance(app, ana) == 200)
            let invited =
                try await app.request(.get, "/api/competitions", token: try await ben.token).jsonObject()["items"]
                as? [[String: Any]]
            #expect(invited?.first?["myState"] as? String == "invited" && invited?.first?["joinCode"] == nil)
            let joined = try await app.request(
                .post,
                "/api/competitions/\(id)/join",
                token: try await ben.token,
                json: [:]
            )
            #expect(joined.status == .ok, "\(joined.text)")
            #expect(try joined.jsonObject()["escrow"] as? Int == 200)
            // Joining twice stakes once.
            #expect(
                try await app.request(.post, "/api/competitions/\(id)/join", token: try await ben.token, json: [:])
                    .status == .ok
            )
            #expect(try await Self.balance(app, ben) == 200)

            app.clock.advance(by: 3 * 3600)
            // Ben: 3 km, then 2.5 km finished 40 minutes ago. Ana: 6 km in one run finished 30 minutes ago —
            // more in all, but Ben got to 5 km first.
            for (person, run) in [
                (ben, Self.run(app, "b1", km: 3, minutes: 20, startedMinutesAgo: 120)),
                (ben, Self.run(app, "b2", km: 2.5, minutes: 20, startedMinutesAgo: 60)),
                (ana, Self.run(app, "a1", km: 6, minutes: 60, startedMinutesAgo: 90)),
            ] {
                let recorded = try await app.request(.post, "/api/activities", token: try await person.token, json: run)
                #expect(recorded.status == .created, "\(recorded.text)")
            }
            let live = try await app.request(.get, "/api/competitions/\(id)/leaderboard", token: try await ana.token)
                .jsonObject()
            let rows = Self.rows(live)
            #expect(rows.map { $0["userId"] as? String } == [ben.id, ana.id], "\(live)")
            #expect(rows.map { $0["value"] as? Double } == [5, 5] && rows[1]["isCaller"] as? Bool == true)
            #expect((live["competition"] as? [String: Any])?["secondsRemaining"] as? Int == 7 * 86_400 - 3 * 3600)

            // The end, then the grace for late syncs: a run of the span synced late still counts.
            app.clock.advance(by: 7 * 86_400 - 3 * 3600 + 600)
            try await DeliveryTests.runJobs(app)
            let late = try await app.request(
                .post,
                "/api/activities",
                token: try await ana.token,
                json: Self.run(app, "a2", km: 1, minutes: 5, startedMinutesAgo: 30)
            )
            #expect(late.status == .created)
            app.clock.advance(by: 2 * 3600)
            try await DeliveryTests.runJobs(app)
            try await DeliveryTests.runJobs(app)
            let final = try await app.request(.get, "/api/competitions/\(id)/leaderboard", token: try await ben.token)
                .jsonObject()
            #expect((final["competition"] as? [String: Any])?["status"] as? String == "settled", "\(final)")
            #expect((final["competition"] as? [String: Any])?["escrow"] as? Int == 0)
            let me = try #require(final["me"] as? [String: Any])
            #expect(me["won"] as? Bool == true && me["payout"] as? Int == 200 && me["rank"] as? Int == 1, "\(me)")
            let (benXP, anaXP) = (try await Self.balance(app, ben), try await Self.balance(app, ana))
            #expect(benXP == 400 && anaXP == 200)
            // Settling again (a second node, a retried job) pays nothing more; the books balance.
            try await app.engine.challenges.settle(Challenge.ID(id))
            try await app.engine.challenges.payOut(Challenge.ID(id))
            #expect(try await Self.balance(app, ben) == 400)
            #expect(try await app.engine.replay.escrowDifferences().isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func spec002_morningMotivation_countsWorkoutsBefore9InEachParticipantsOwnZone(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let tokyo = try await Self.person(app, "kenji@example.com", zone: "Asia/Tokyo")
            let newYork = try await Self.person(app, "maya@example.com", zone: "America/New_York")
            let created = try await app.request(
                .post,
                "/api/competitions",
                token: try await tokyo.token,
                json: [
                    "name": "Morning Motivation", "type": "workouts", "goal": "everyone_to", "target": 2,
                    "startsBefore": "09:00", "durationDays": 7,
                    "visibility": "public",
                ]
            ).jsonObject()
            let id = try #require(created["id"] as? String)
            #expect(
                try await app.request(.post, "/api/competitions/\(id)/join", token: try await newYork.token, json: [:])
                    .status == .ok
            )
            app.clock.advance(by: 3 * 86_400)
            // Each at 08:30 and at 10:00 on their own clock, on two days.
            func at(_ hour: Int, _ minute: Int, daysAgo: Int, in zone: String) -> Date {
                let tz = TimeZone(identifier: zone)!
                let day = LocalDate(app.clock.now, in: tz).adding(days: -daysAgo)
                return day.instant(at: LocalTime(hour: hour, minute: minute)!, in: tz)!
            }
            for (person, zone) in [(tokyo, "Asia/Tokyo"), (newYork, "America/New_York")] {
                for (index, (hour, minute, daysAgo)) in [(8, 30, 1), (10, 0, 1), (8, 30, 2), (10, 0, 2)].enumerated() {
                    let body: [String: Any] = [
                        "clientEventId": "m\(index)", "type": "workout", "source": "app",
                        "occurredAt": ActivityLedgerTests.iso(at(hour, minute, daysAgo: daysAgo, in: zone)),
                        "workout": ["type": "walking", "durationSeconds": 1200],
                    ]
                    #expect(
                        try await app.request(.post, "/api/activities", token: try await person.token, json: body)
                            .status == .created
                    )
                }
            }
            let board = try await app.request(
                .get,
                "/api/competitions/\(id)/leaderboard",
                token: try await newYork.token
            ).jsonObject()
            #expect(Self.rows(board).map { $0["value"] as? Double } == [2, 2], "\(board)")
            app.clock.advance(by: 5 * 86_400)
            try await DeliveryTests.runJobs(app)
            let final = try await app.request(.get, "/api/competitions/\(id)/leaderboard", token: try await tokyo.token)
                .jsonObject()
            #expect(Self.rows(final).map { $0["won"] as? Bool } == [true, true], "\(final)")
        }
    }

    @Test(arguments: Backend.available)
    func stakes_aShortBalanceIsRefused_concurrentJoinsStakeOnce_andTooFewAtTheStartRefundsEveryone(_ backend: Backend)
        async throws
    {
        try await withTestApp(backend) { app async throws in
            let ana = try await Self.person(app, "ana@example.com", xp: 500)
            let ben = try await Self.person(app, "ben@example.com", xp: 50)
            let start = ActivityLedgerTests.iso(app.clock.now.addingTimeInterval(3600))
            let created = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token,
                json: [
                    "name": "Burn Battle", "type": "calories", "durationDays": 7, "stake": 100, "visibility": "public",
                    "startsAt": start, "minParticipants": 3,
                ]
            ).jsonObject()
            let id = try #require(created["id"] as? String)
            let short = try await app.request(
                .post,
                "/api/competitions/\(id)/join",
                token: try await ben.token,
                json: [:]
            )
            #expect(short.status == .conflict && short.text.contains("50 XP"), "\(short.text)")
            #expect(try await Self.balance(app, ben) == 50)
            // Ana leaves and joins again many times at once: one stake held whatever the order.
            #expect(
                try await app.request(.post, "/api/competitions/\(id)/leave", token: try await ana.token).status == .ok
            )
            #expect(try await Self.balance(app, ana) == 500)
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await app.request(
                            .post,
                            "/api/competitions/\(id)/join",
                            token: try await ana.token,
                            json: [:]
                        ).status.code
                    }
                }
                for try await status in group { #expect(status == 200) }
            }
            #expect(try await Self.balance(app, ana) == 400)
            let read = try await app.request(.get, "/api/competitions/\(id)", token: try await ana.token).jsonObject()
            #expect(read["escrow"] as? Int == 100 && read["participantCount"] as? Int == 1, "\(read)")
            // Only one of the three needed at the start: cancelled, the stake comes back once.
            app.clock.advance(by: 3600)
            try await DeliveryTests.runJobs(app)
            try await DeliveryTests.runJobs(app)
            let cancelled = try await app.request(.get, "/api/competitions/\(id)", token: try await ana.token)
                .jsonObject()
            #expect(cancelled["status"] as? String == "cancelled" && cancelled["escrow"] as? Int == 0, "\(cancelled)")
            #expect(try await Self.balance(app, ana) == 500)
            #expect(
                try await app.request(.post, "/api/competitions/\(id)/join", token: try await ben.token, json: [:])
                    .status == .conflict
            )
            #expect(try await app.engine.replay.escrowDifferences().isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func access_aPrivateChallengeIsHiddenWithoutItsCode_andBadInputNamesTheField(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await Self.person(app, "ana@example.com")
            let stranger = try await Self.person(app, "zed@example.com")
            let bad = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token,
                json: [
                    "name": "", "type": "distance", "goal": "first_to", "durationDays": 0, "startsBefore": "9am",
                    "stake": -1, "invitees": [stranger.id],
                ]
            )
            #expect(bad.status == .unprocessableContent)
            for field in ["startsBefore"] { #expect(bad.text.contains(field), "\(bad.text)") }
            let bad2 = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token,
                json: [
                    "name": "", "type": "specific_workout", "goal": "first_to",
                    "target": Double.greatestFiniteMagnitude, "durationDays": 0, "stake": -1,
                    "invitees": [stranger.id],
                ]
            )
            #expect(bad2.status == .unprocessableContent)
            for field in ["name", "target", "durationDays", "stake", "workoutTypes"] {
                #expect(bad2.text.contains("\"\(field)\""), "\(field): \(bad2.text)")
            }
            let stranger422 = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token,
                json: [
                    "name": "Ours", "type": "most_activities", "durationDays": 3, "invitees": [stranger.id],
                ]
            )
            #expect(
                stranger422.status == .unprocessableContent && stranger422.text.contains("\"invitees[0]\""),
                "\(stranger422.text)"
            )
            // Ids that name nothing FitCircle made are refused before any query (a NUL would trouble PostgreSQL).
            let strange = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token,
                json: [
                    "name": "Ours", "type": "most_activities", "durationDays": 3,
                    "invitees": ["abc", String(repeating: "a", count: 100)],
                ]
            )
            #expect(
                strange.status == .unprocessableContent && strange.text.contains("\"invitees[1]\""),
                "\(strange.text)"
            )
            // NUL is refused while the body is read, naming where it was.
            let nul = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token,
                json: [
                    "name": "Ours", "type": "most_activities", "durationDays": 3, "invitees": ["x\u{0}y"],
                ]
            )
            #expect(nul.status == .badRequest && nul.text.contains("\"invitees[0]\""), "\(nul.text)")
            #expect(
                try await app.request(.get, "/api/competitions/a%00b", token: try await ana.token).status == .badRequest
            )
            let none = try await app.request(.get, "/api/competitions", token: try await ana.token).jsonObject()
            #expect((none["items"] as? [Any])?.isEmpty == true, "refused input created nothing: \(none)")

            let created = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token,
                json: ["name": "Ours", "type": "most_activities", "durationDays": 3]
            )
            .jsonObject()
            let (id, code) = (try #require(created["id"] as? String), try #require(created["joinCode"] as? String))
            #expect(
                try await app.request(.get, "/api/competitions/\(id)", token: try await stranger.token).status
                    == .notFound
            )
            #expect(
                try await app.request(.get, "/api/competitions/\(id)/leaderboard", token: try await stranger.token)
                    .status == .notFound
            )
            #expect(
                try await app.request(.post, "/api/competitions/\(id)/join", token: try await stranger.token, json: [:])
                    .status == .notFound
            )
            #expect(
                try await app.request(
                    .post,
                    "/api/competitions/\(id)/join",
                    token: try await stranger.token,
                    json: ["code": "WRONG123"]
                ).status == .notFound
            )
            let joined = try await app.request(
                .post,
                "/api/competitions/\(id)/join",
                token: try await stranger.token,
                json: ["code": code.lowercased()]
            )
            #expect(joined.status == .ok, "\(joined.text)")
            #expect(try joined.jsonObject()["participantCount"] as? Int == 2)
            #expect(
                try await app.request(.post, "/api/competitions/\(id)/decline", token: try await stranger.token).status
                    == .forbidden
            )
            let open = try await app.request(.get, "/api/competitions?scope=open", token: try await stranger.token)
                .jsonObject()
            #expect((open["items"] as? [Any])?.isEmpty == true)
        }
    }

    /// R9.2: a participant's stream hears each relevant workout's new value and rank as it is recorded
    /// (well within the 30 seconds the spec allows); strangers to a private challenge get 404.
    @Test(arguments: Backend.available)
    func r9_2_theBoardStreamCarriesEachWorkoutAsItIsRecorded(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await Self.person(app, "ana@example.com")
            let ben = try await Self.person(app, "ben@example.com")
            let zed = try await Self.person(app, "zed@example.com")
            let created = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token,
                json: [
                    "name": "Longest run", "type": "longest_activity", "durationDays": 7,
                ]
            ).jsonObject()
            let (id, code) = (try #require(created["id"] as? String), try #require(created["joinCode"] as? String))
            #expect(
                try await app.request(
                    .post,
                    "/api/competitions/\(id)/join",
                    token: try await ben.token,
                    json: ["code": code]
                ).status == .ok
            )
            app.clock.advance(by: 3600)
            let token = try await ana.token
            async let streamed = app.request(.get, "/api/competitions/\(id)/stream?seconds=5", token: token)
            for _ in 0..<300 where app.engine.challenges.events.listeners(of: .challenge(Challenge.ID(id))) == 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            let started = ContinuousClock.now
            #expect(
                try await app.request(
                    .post,
                    "/api/activities",
                    token: try await ben.token,
                    json: Self.run(app, "b1", km: 7.5, minutes: 40, startedMinutesAgo: 50)
                ).status == .created
            )
            let response = try await streamed
            let events = try InboxStreamTests.events(response.text)
            #expect(events.first?.event == "ready")
            let ranks = events.filter { $0.event == "rank" }
            #expect(
                ranks.count == 1 && ranks.first?.data["userId"] as? String == ben.id
                    && ranks.first?.data["value"] as? Double == 7.5
                    && ranks.first?.data["rank"] as? Int == 1,
                "\(events)"
            )
            #expect(ContinuousClock.now - started < .seconds(30))
            #expect(
                try await app.request(.get, "/api/competitions/\(id)/stream?seconds=1", token: try await zed.token)
                    .status == .notFound
            )
        }
    }

    /// A challenge made to start at once gathers its people while it runs: not called off at its start
    /// with only its creator in; judged at the end, a lone participant's stake comes back.
    @Test(arguments: Backend.available)
    func quorum_aChallengeStartingAtOnceGathersWhileItRunsAndIsJudgedAtTheEnd(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await Self.person(app, "ana@example.com", xp: 100)
            let ben = try await Self.person(app, "ben@example.com", xp: 100)
            let made = { (name: String) async throws -> String in
                let created = try await app.request(
                    .post,
                    "/api/competitions",
                    token: try await ana.token,
                    json: [
                        "name": name, "type": "workouts", "durationDays": 1, "stake": 30, "visibility": "public",
                    ]
                ).jsonObject()
                return try #require(created["id"] as? String)
            }
            let (gathered, lone) = (try await made("Now"), try await made("Alone"))
            try await DeliveryTests.runJobs(app)
            app.clock.advance(by: 600)
            let joined = try await app.request(
                .post,
                "/api/competitions/\(gathered)/join",
                token: try await ben.token,
                json: [:]
            )
            #expect(joined.status == .ok, "\(joined.text)")
            #expect(try joined.jsonObject()["status"] as? String == "active")
            app.clock.advance(by: 86_400 + 2 * 3600)
            try await DeliveryTests.runJobs(app)
            let ended = try await app.request(.get, "/api/competitions/\(gathered)", token: try await ana.token)
                .jsonObject()
            #expect(ended["status"] as? String == "settled", "\(ended)")
            let alone = try await app.request(.get, "/api/competitions/\(lone)", token: try await ana.token)
                .jsonObject()
            #expect(
                alone["status"] as? String == "cancelled" && alone["escrow"] as? Int == 0
                    && alone["secondsRemaining"] as? Int == 0,
                "\(alone)"
            )
            // Nobody did anything in "Now" either: both stakes back; "Alone" gave Ana hers.
            let (anaXP, benXP) = (try await Self.balance(app, ana), try await Self.balance(app, ben))
            #expect(anaXP == 100 && benXP == 100, "\(anaXP) \(benXP)")
            #expect(try await app.engine.replay.escrowDifferences().isEmpty)
        }
    }
}

/// The kinds not played elsewhere, each settled from real activities: a specific workout, the fastest pace
/// over a kilometre, and XP earned; and escrow under a settlement run twice at once, and a payout left
/// behind by a crash.
struct ChallengeKindTests {
    static func settleAfter(_ app: TestApp, days: Double) async throws {
        app.clock.advance(by: days * 86_400 + Challenge.settlementGrace + 60)
        try await DeliveryTests.runJobs(app)
    }

    static func winners(_ app: TestApp, _ id: String, as person: ChallengeTests.Person) async throws -> [String] {
        let board = try await app.request(.get, "/api/competitions/\(id)/leaderboard", token: try await person.token)
            .jsonObject()
        #expect((board["competition"] as? [String: Any])?["status"] as? String == "settled", "\(board)")
        return ChallengeTests.rows(board).filter { $0["won"] as? Bool == true }.compactMap { $0["userId"] as? String }
    }

    @Test(arguments: Backend.available)
    func spec002_aSpecificWorkoutCountsOnlyItsType_andSpec004_theFastestPaceOverAKilometreWins(_ backend: Backend)
        async throws
    {
        try await withTestApp(backend) { app async throws in
            let ana = try await ChallengeTests.person(app, "ana@example.com")
            let ben = try await ChallengeTests.person(app, "ben@example.com")
            func made(_ body: [String: Any]) async throws -> String {
                let created = try await app.request(
                    .post,
                    "/api/competitions",
                    token: try await ana.token,
                    json: body.merging(["visibility": "public", "durationDays": 2]) { $1 }
                )
                #expect(created.status == .created, "\(created.text)")
                let id = try #require(try created.jsonObject()["id"] as? String)
                #expect(
                    try await app.request(.post, "/api/competitions/\(id)/join", token: try await ben.token, json: [:])
                        .status == .ok
                )
                return id
            }
            let cycling = try await made(["name": "Cycle", "type": "specific_workout", "workoutTypes": ["cycling"]])
            let pace = try await made(["name": "Pace", "type": "fastest_pace"])
            app.clock.advance(by: 6 * 3600)
            // Ana: the fastest a 4:10/km over 0.8 km (too short to count), then 4:50/km over 5 km.
            // Ben: two rides at 3:00/km (a ride's pace does not count) and a 4:30/km kilometre.
            let plans: [(ChallengeTests.Person, [(String, Double, Double, String)])] = [
                (ana, [("a1", 0.8, 200, "running"), ("a2", 5, 1450, "running"), ("a3", 3, 1200, "walking")]),
                (ben, [("b1", 20, 3600, "cycling"), ("b2", 15, 2700, "cycling"), ("b3", 1, 270, "running")]),
            ]
            for (person, workouts) in plans {
                for (index, workout) in workouts.enumerated() {
                    let body: [String: Any] = [
                        "clientEventId": workout.0, "type": "workout", "source": "app",
                        "occurredAt": ActivityLedgerTests.iso(
                            app.clock.now.addingTimeInterval(-Double(5 - index) * 3600)
                        ),
                        "workout": [
                            "type": workout.3, "durationSeconds": workout.2, "distanceMeters": workout.1 * 1000,
                        ],
                    ]
                    #expect(
                        try await app.request(.post, "/api/activities", token: try await person.token, json: body)
                            .status == .created
                    )
                }
            }
            let board = try await app.request(.get, "/api/competitions/\(pace)/leaderboard", token: try await ana.token)
                .jsonObject()
            #expect(
                ChallengeTests.rows(board).map { $0["value"] as? Double } == [270, 290],
                "seconds per km, the best first: \(board)"
            )
            #expect(
                (board["competition"] as? [String: Any]).flatMap { ($0["rule"] as? [String: Any])?["unit"] as? String }
                    == "seconds_per_km"
            )
            let cycled = try await app.request(
                .get,
                "/api/competitions/\(cycling)/leaderboard",
                token: try await ana.token
            ).jsonObject()
            #expect(
                ChallengeTests.rows(cycled).compactMap { $0["value"] as? Double } == [2],
                "Ben's two rides; Ana's runs count for nothing"
            )
            try await Self.settleAfter(app, days: 2)
            #expect(try await Self.winners(app, pace, as: ana) == [ben.id])
            #expect(try await Self.winners(app, cycling, as: ana) == [ben.id])
        }
    }

    @Test(arguments: Backend.available)
    func spec002_anXPChallengeCountsPointsEarnedInItsSpan_notStakes(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "famefit") { app async throws in
            let ana = try await ChallengeTests.person(app, "ana@example.com", xp: 1_000)
            let ben = try await ChallengeTests.person(app, "ben@example.com", xp: 1_000)
            app.clock.advance(by: 1)  // the seeded XP was earned before the span
            let created = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token,
                json: [
                    "name": "XP race", "type": "xp", "durationDays": 1, "stake": 200, "visibility": "public",
                ]
            ).jsonObject()
            let id = try #require(created["id"] as? String)
            #expect(
                try await app.request(.post, "/api/competitions/\(id)/join", token: try await ben.token, json: [:])
                    .status == .ok
            )
            app.clock.advance(by: 3 * 3600)
            // famefit pays XP per workout by type, duration and calories: Ben's longer one earns more.
            for (person, minutes) in [(ana, 20.0), (ben, 60.0)] {
                let body = ChallengeTests.run(
                    app,
                    "w-\(person.id)",
                    km: minutes / 6,
                    minutes: minutes,
                    startedMinutesAgo: minutes + 5
                )
                #expect(
                    try await app.request(.post, "/api/activities", token: try await person.token, json: body).status
                        == .created
                )
            }
            let board = try await app.request(.get, "/api/competitions/\(id)/leaderboard", token: try await ana.token)
                .jsonObject()
            let rows = ChallengeTests.rows(board)
            #expect(
                rows.first?["userId"] as? String == ben.id
                    && (rows.first?["value"] as? Double ?? 0) > (rows.last?["value"] as? Double ?? 0),
                "\(board)"
            )
            // Each value is what the ledger credited since the start, the −200 stake and the seeded XP left out.
            for person in [ana, ben] {
                let earned = try await app.store.read { tx in try await tx.points.allLines(of: User.ID(person.id)) }
                    .filter { $0.reason != .stake && $0.sourceKey != "seed" }.reduce(0) { $0 + $1.amount }
                let value = rows.first { $0["userId"] as? String == person.id }?["value"] as? Double
                #expect(
                    earned > 0 && value == Double(earned),
                    "\(person.email): \(value ?? -1) against \(earned) earned"
                )
            }
            try await Self.settleAfter(app, days: 1)
            #expect(try await Self.winners(app, id, as: ben) == [ben.id])
        }
    }

    /// Points earned without a new activity — a goal seen met, a claim of the day's data — move an XP
    /// challenge's board in the transaction that credits them.
    @Test(arguments: Backend.available)
    func anXPChallengesBoardMovesWithPointsFromGoalsAndClaims(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "fitcircle") { app async throws in
            let ana = try await ChallengeTests.person(app, "ana@example.com")
            let created = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token,
                json: [
                    "name": "XP day", "type": "xp", "durationDays": 1, "visibility": "public",
                ]
            ).jsonObject()
            let id = try #require(created["id"] as? String)
            app.clock.advance(by: 60)
            let synced = try await app.request(
                .post,
                "/api/activities",
                token: try await ana.token,
                json: [
                    "clientEventId": "steps-1", "type": "steps", "source": "healthkit", "steps": 12_000,
                    "occurredAt": ISO8601DateFormatter().string(from: app.clock.now),
                ]
            )
            #expect(synced.status == .created, "\(synced.text)")
            func value() async throws -> Double? {
                ChallengeTests.rows(
                    try await app.request(.get, "/api/competitions/\(id)/leaderboard", token: try await ana.token)
                        .jsonObject()
                )
                .first?["value"] as? Double
            }
            let before = try await value() ?? 0
            // the step goal is seen met: +50
            #expect(try await app.request(.get, "/api/goals/daily", token: try await ana.token).status == .ok)
            let afterGoal = try #require(try await value())
            #expect(afterGoal == before + 50)
            let circle = try await app.request(
                .post,
                "/api/fitcircles",
                token: try await ana.token,
                json: ["name": "Solo", "metric": "steps"]
            ).jsonObject()
            let claimed = try await app.request(
                .post,
                "/api/fitcircles/\(try #require(circle["id"] as? String))/submit",
                token: try await ana.token
            )
            #expect(claimed.status.code < 300, "\(claimed.text)")
            #expect(try await value() == afterGoal + 5)  // the claim's 5
        }
    }

    @Test(arguments: Backend.available)
    func escrow_aSettlementRunTwiceAtOncePaysOnce_andAPayoutLeftByACrashIsPaidLater(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await ChallengeTests.person(app, "ana@example.com", xp: 300)
            let ben = try await ChallengeTests.person(app, "ben@example.com", xp: 300)
            let created = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token,
                json: [
                    "name": "Duel", "type": "most_activities", "durationDays": 1, "stake": 100, "visibility": "public",
                ]
            ).jsonObject()
            let id = Challenge.ID(try #require(created["id"] as? String))
            #expect(
                try await app.request(.post, "/api/competitions/\(id)/join", token: try await ben.token, json: [:])
                    .status == .ok
            )
            app.clock.advance(by: 3600)
            #expect(
                try await app.request(
                    .post,
                    "/api/activities",
                    token: try await ana.token,
                    json: ChallengeTests.run(app, "a", km: 3, minutes: 20, startedMinutesAgo: 30)
                ).status == .created
            )
            app.clock.advance(by: 86_400 + Challenge.settlementGrace)
            // Two nodes settle at once; then the process dies before any payout runs.
            async let first: Void = app.engine.challenges.settle(id)
            async let second: Void = app.engine.challenges.settle(id)
            _ = try await (first, second)
            let held = try await app.request(.get, "/api/competitions/\(id)", token: try await ana.token).jsonObject()
            #expect(
                held["status"] as? String == "settled" && held["escrow"] as? Int == 200,
                "still in escrow until paid: \(held)"
            )
            #expect(try await app.engine.replay.escrowDifferences().isEmpty)
            // The payout job, run twice at once after the restart, pays the pot once.
            async let payA: Void = app.engine.challenges.payOut(id)
            async let payB: Void = app.engine.challenges.payOut(id)
            _ = try await (payA, payB)
            try await DeliveryTests.runJobs(app)
            let (anaXP, benXP) = (
                try await ChallengeTests.balance(app, ana), try await ChallengeTests.balance(app, ben)
            )
            #expect(anaXP == 400 && benXP == 200, "\(anaXP) \(benXP)")
            #expect(try await app.engine.replay.escrowDifferences().isEmpty)
        }
    }
}
