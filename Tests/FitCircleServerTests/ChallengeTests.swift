import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Challenges and competitions through the API (specs 002 and 004 R8, R9, R16): rules scored from real
/// workouts, stakes held in escrow and paid once, access by visibility, code and invitation.
struct ChallengeTests {
    typealias Input = Components.Schemas.CompetitionInput

    /// Creates the challenge as `person`; the 201's body.
    static func create(_ app: TestApp, as person: TestPerson, _ input: Input) async throws
        -> Components.Schemas.Competition
    {
        try await app.api(as: person).createCompetition(body: .json(input)).created.body.json
    }

    static func join(_ app: TestApp, _ id: String, as person: TestPerson, code: String? = nil) async throws
        -> Operations.JoinCompetition.Output
    {
        try await app.joinChallenge(id, as: person, code: code)
    }

    static func board(_ app: TestApp, _ id: String, as person: TestPerson) async throws
        -> Components.Schemas.CompetitionLeaderboard
    {
        try await app.api(as: person).getCompetitionLeaderboard(path: .init(id: id)).ok.body.json
    }

    static func record(_ app: TestApp, _ input: Components.Schemas.ActivityInput, as person: TestPerson) async throws {
        _ = try await app.api(as: person).recordActivity(body: .json(input)).created
    }

    @Test(arguments: Backend.available)
    func spec002_fiveKFaceOff_isWonByWhoReached5kmFirst_andTheWinnerTakesTheStakes(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com", xp: 300)
            let ben = try await app.person("ben@example.com", xp: 300)
            try await app.befriend(ana, ben)
            let challenge = try await Self.create(
                app,
                as: ana,
                Input(
                    name: "5K Face-Off",
                    _type: .distance,
                    goal: .firstTo,
                    target: 5,
                    durationDays: 7,
                    stake: 100,
                    invitees: [ben.id]
                )
            )
            let id = challenge.id
            #expect(challenge.escrow == 100 && challenge.myState == .joined && challenge.status == .active)
            #expect(try await app.balance(of: ana) == 200)
            let invited = try await app.api(as: ben).listCompetitions().ok.body.json.items
            #expect(invited.first?.myState == .invited && invited.first?.joinCode == nil)
            #expect(try await Self.join(app, id, as: ben).ok.body.json.escrow == 200)
            // Joining twice stakes once.
            _ = try await Self.join(app, id, as: ben).ok
            #expect(try await app.balance(of: ben) == 200)

            app.clock.advance(by: 3 * 3600)
            // Ben: 3 km, then 2.5 km finished 40 minutes ago. Ana: 6 km in one run finished 30 minutes ago —
            // more in all, but Ben got to 5 km first.
            for (person, run) in [
                (ben, app.workout("b1", km: 3, minutes: 20, startedMinutesAgo: 120)),
                (ben, app.workout("b2", km: 2.5, minutes: 20, startedMinutesAgo: 60)),
                (ana, app.workout("a1", km: 6, minutes: 60, startedMinutesAgo: 90)),
            ] {
                try await Self.record(app, run, as: person)
            }
            let live = try await Self.board(app, id, as: ana)
            #expect(live.rows.map(\.userId) == [ben.id, ana.id], "\(live)")
            #expect(live.rows.map(\.value) == [5, 5] && live.rows[1].isCaller)
            #expect(live.competition.secondsRemaining == 7 * 86_400 - 3 * 3600)

            // The end, then the grace for late syncs: a run of the span synced late still counts.
            app.clock.advance(by: 7 * 86_400 - 3 * 3600 + 600)
            try await app.runJobs()
            try await Self.record(app, app.workout("a2", km: 1, minutes: 5, startedMinutesAgo: 30), as: ana)
            app.clock.advance(by: 2 * 3600)
            try await app.runJobs()
            try await app.runJobs()
            let final = try await Self.board(app, id, as: ben)
            #expect(final.competition.status == .settled, "\(final)")
            #expect(final.competition.escrow == 0)
            let me = try #require(final.me)
            #expect(me.won == true && me.payout == 200 && me.rank == 1, "\(me)")
            let (benXP, anaXP) = (try await app.balance(of: ben), try await app.balance(of: ana))
            #expect(benXP == 400 && anaXP == 200)
            // Settling again (a second node, a retried job) pays nothing more; the books balance.
            try await app.engine.challenges.settle(Challenge.ID(id))
            try await app.engine.challenges.payOut(Challenge.ID(id))
            #expect(try await app.balance(of: ben) == 400)
            #expect(try await app.engine.replay.escrowDifferences().isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func spec002_morningMotivation_countsWorkoutsBefore9InEachParticipantsOwnZone(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let tokyo = try await app.person("kenji@example.com", timeZone: "Asia/Tokyo")
            let newYork = try await app.person("maya@example.com", timeZone: "America/New_York")
            let id = try await Self.create(
                app,
                as: tokyo,
                Input(
                    name: "Morning Motivation",
                    _type: .workouts,
                    goal: .everyoneTo,
                    target: 2,
                    startsBefore: "09:00",
                    visibility: ._public,
                    durationDays: 7
                )
            ).id
            _ = try await Self.join(app, id, as: newYork).ok
            app.clock.advance(by: 3 * 86_400)
            // Each at 08:30 and at 10:00 on their own clock, on two days.
            func at(_ hour: Int, _ minute: Int, daysAgo: Int, in zone: String) -> Date {
                let tz = TimeZone(identifier: zone)!
                let day = LocalDate(app.clock.now, in: tz).adding(days: -daysAgo)
                return day.instant(at: LocalTime(hour: hour, minute: minute)!, in: tz)!
            }
            for (person, zone) in [(tokyo, "Asia/Tokyo"), (newYork, "America/New_York")] {
                for (index, (hour, minute, daysAgo)) in [(8, 30, 1), (10, 0, 1), (8, 30, 2), (10, 0, 2)].enumerated() {
                    let walk = Components.Schemas.ActivityInput(
                        clientEventId: "m\(index)",
                        _type: .workout,
                        occurredAt: at(hour, minute, daysAgo: daysAgo, in: zone),
                        source: .app,
                        workout: .init(_type: .walking, durationSeconds: 1200)
                    )
                    try await Self.record(app, walk, as: person)
                }
            }
            let board = try await Self.board(app, id, as: newYork)
            #expect(board.rows.map(\.value) == [2, 2], "\(board)")
            app.clock.advance(by: 5 * 86_400)
            try await app.runJobs()
            let final = try await Self.board(app, id, as: tokyo)
            #expect(final.rows.map(\.won) == [true, true], "\(final)")
        }
    }

    @Test(arguments: Backend.available)
    func stakes_aShortBalanceIsRefused_concurrentJoinsStakeOnce_andTooFewAtTheStartRefundsEveryone(_ backend: Backend)
        async throws
    {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com", xp: 500)
            let ben = try await app.person("ben@example.com", xp: 50)
            let id = try await Self.create(
                app,
                as: ana,
                Input(
                    name: "Burn Battle",
                    _type: .calories,
                    visibility: ._public,
                    startsAt: app.clock.now.addingTimeInterval(3600),
                    durationDays: 7,
                    stake: 100,
                    minParticipants: 3
                )
            ).id
            // A problem type of its own, with the figures an app shows (issue 46).
            let short = try await Self.join(app, id, as: ben).conflict.body.applicationProblemJson
            #expect(short._type == "/problems/insufficient-xp" && short.detail?.contains("50 XP") == true, "\(short)")
            #expect(short.xpNeeded == 100 && short.xpAvailable == 50, "\(short)")
            #expect(try await app.balance(of: ben) == 50)
            // Ana leaves and joins again many times at once: one stake held whatever the order.
            _ = try await app.api(as: ana).leaveCompetition(path: .init(id: id)).noContent
            #expect(try await app.balance(of: ana) == 500)
            let api = try await app.api(as: ana)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask { _ = try await api.joinCompetition(path: .init(id: id), body: .json(.init())).ok }
                }
                try await group.waitForAll()
            }
            #expect(try await app.balance(of: ana) == 400)
            let read = try await app.api(as: ana).getCompetition(path: .init(id: id)).ok.body.json
            #expect(read.escrow == 100 && read.participantCount == 1, "\(read)")
            // Only one of the three needed at the start: cancelled, the stake comes back once.
            app.clock.advance(by: 3600)
            try await app.runJobs()
            try await app.runJobs()
            let cancelled = try await app.api(as: ana).getCompetition(path: .init(id: id)).ok.body.json
            #expect(cancelled.status == .cancelled && cancelled.escrow == 0, "\(cancelled)")
            #expect(try await app.balance(of: ana) == 500)
            let closed = try await Self.join(app, id, as: ben).conflict.body.applicationProblemJson
            #expect(closed._type == "/problems/challenge-closed", "\(closed)")
            #expect(try await app.engine.replay.escrowDifferences().isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func access_aPrivateChallengeIsHiddenWithoutItsCode_andBadInputNamesTheField(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com")
            let stranger = try await app.person("zed@example.com")
            // Raw requests: an invalid time, a non-finite target and a NUL are what the typed client cannot send.
            func refused(_ body: [String: Any]) async throws -> TestResponse {
                try await app.request(.post, "/api/competitions", token: try await ana.token(app), json: body)
            }
            let bad = try await refused([
                "name": "", "type": "distance", "goal": "first_to", "durationDays": 0, "startsBefore": "9am",
                "stake": -1, "invitees": [stranger.id],
            ])
            #expect(bad.status == .unprocessableContent)
            #expect(try bad.problem().fields.contains("startsBefore"), "\(bad.text)")
            let bad2 = try await refused([
                "name": "", "type": "specific_workout", "goal": "first_to",
                "target": Double.greatestFiniteMagnitude, "durationDays": 0, "stake": -1,
                "invitees": [stranger.id],
            ])
            #expect(bad2.status == .unprocessableContent)
            for field in ["name", "target", "durationDays", "stake", "workoutTypes"] {
                #expect(try bad2.problem().fields.contains(field), "\(field): \(bad2.text)")
            }
            let notAFriend = try await app.api(as: ana).createCompetition(
                body: .json(Input(name: "Ours", _type: .mostActivities, durationDays: 3, invitees: [stranger.id]))
            )
            #expect(try notAFriend.unprocessableContent.body.applicationProblemJson.fields.contains("invitees[0]"))
            // Ids that name nothing FitCircle made are refused before any query (a NUL would trouble PostgreSQL).
            let strange = try await app.api(as: ana).createCompetition(
                body: .json(
                    Input(
                        name: "Ours",
                        _type: .mostActivities,
                        durationDays: 3,
                        invitees: ["abc", String(repeating: "a", count: 100)]
                    )
                )
            )
            #expect(try strange.unprocessableContent.body.applicationProblemJson.fields.contains("invitees[1]"))
            // NUL is refused while the body is read, naming where it was.
            let nul = try await refused([
                "name": "Ours", "type": "most_activities", "durationDays": 3, "invitees": ["x\u{0}y"],
            ])
            #expect(nul.status == .badRequest && nul.text.contains("\"invitees[0]\""), "\(nul.text)")
            #expect(
                try await app.request(.get, "/api/competitions/a%00b", token: try await ana.token(app)).status
                    == .badRequest
            )
            #expect(
                try await app.api(as: ana).listCompetitions().ok.body.json.items.isEmpty,
                "refused input created nothing"
            )

            let created = try await Self.create(
                app,
                as: ana,
                Input(name: "Ours", _type: .mostActivities, durationDays: 3)
            )
            let (id, code) = (created.id, try #require(created.joinCode))
            let asStranger = try await app.api(as: stranger)
            _ = try await asStranger.getCompetition(path: .init(id: id)).notFound
            _ = try await asStranger.getCompetitionLeaderboard(path: .init(id: id)).notFound
            _ = try await Self.join(app, id, as: stranger).notFound
            _ = try await Self.join(app, id, as: stranger, code: "WRONG123").notFound
            #expect(
                try await Self.join(app, id, as: stranger, code: code.lowercased()).ok.body.json.participantCount == 2
            )
            _ = try await asStranger.declineCompetition(path: .init(id: id)).forbidden
            #expect(try await asStranger.listCompetitions(query: .init(scope: .open)).ok.body.json.items.isEmpty)
        }
    }

    /// R9.2: a participant's stream hears each relevant workout's new value and rank as it is recorded
    /// (well within the 30 seconds the spec allows); strangers to a private challenge get 404.
    @Test(arguments: Backend.available)
    func r9_2_theBoardStreamCarriesEachWorkoutAsItIsRecorded(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com")
            let ben = try await app.person("ben@example.com")
            let zed = try await app.person("zed@example.com")
            let created = try await Self.create(
                app,
                as: ana,
                Input(name: "Longest run", _type: .longestActivity, durationDays: 7)
            )
            let (id, code) = (created.id, try #require(created.joinCode))
            _ = try await Self.join(app, id, as: ben, code: code).ok
            app.clock.advance(by: 3600)
            let token = try await ana.token(app)
            // A raw request: the stream's text is read whole once it ends.
            async let streamed = app.request(.get, "/api/competitions/\(id)/stream?seconds=5", token: token)
            for _ in 0..<300 where app.engine.challenges.events.listeners(of: .challenge(Challenge.ID(id))) == 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            let started = ContinuousClock.now
            try await Self.record(app, app.workout("b1", km: 7.5, minutes: 40, startedMinutesAgo: 50), as: ben)
            let response = try await streamed
            let events = ServerSentEvent.all(in: response.text)
            #expect(events.first?.event == "ready")
            let ranks = try events.filter { $0.event == "rank" }.map {
                try $0.decoded(as: Components.Schemas.RankUpdate.self)
            }
            #expect(
                ranks.count == 1 && ranks.first?.userId == ben.id && ranks.first?.value == 7.5
                    && ranks.first?.rank == 1,
                "\(events)"
            )
            #expect(ContinuousClock.now - started < .seconds(30))
            _ = try await app.api(as: zed).streamCompetition(path: .init(id: id), query: .init(seconds: 1)).notFound
        }
    }

    /// A challenge made to start at once gathers its people while it runs: not called off at its start
    /// with only its creator in; judged at the end, a lone participant's stake comes back.
    @Test(arguments: Backend.available)
    func quorum_aChallengeStartingAtOnceGathersWhileItRunsAndIsJudgedAtTheEnd(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com", xp: 100)
            let ben = try await app.person("ben@example.com", xp: 100)
            let made = { (name: String) async throws -> String in
                try await Self.create(
                    app,
                    as: ana,
                    Input(name: name, _type: .workouts, visibility: ._public, durationDays: 1, stake: 30)
                ).id
            }
            let (gathered, lone) = (try await made("Now"), try await made("Alone"))
            try await app.runJobs()
            app.clock.advance(by: 600)
            #expect(try await Self.join(app, gathered, as: ben).ok.body.json.status == .active)
            app.clock.advance(by: 86_400 + 2 * 3600)
            try await app.runJobs()
            let ended = try await app.api(as: ana).getCompetition(path: .init(id: gathered)).ok.body.json
            #expect(ended.status == .settled, "\(ended)")
            let alone = try await app.api(as: ana).getCompetition(path: .init(id: lone)).ok.body.json
            #expect(alone.status == .cancelled && alone.escrow == 0 && alone.secondsRemaining == 0, "\(alone)")
            // Nobody did anything in "Now" either: both stakes back; "Alone" gave Ana hers.
            let (anaXP, benXP) = (try await app.balance(of: ana), try await app.balance(of: ben))
            #expect(anaXP == 100 && benXP == 100, "\(anaXP) \(benXP)")
            #expect(try await app.engine.replay.escrowDifferences().isEmpty)
        }
    }
}

/// The kinds not played elsewhere, each settled from real activities: a specific workout, the fastest pace
/// over a kilometre, and XP earned; and escrow under a settlement run twice at once, and a payout left
/// behind by a crash.
struct ChallengeKindTests {
    typealias Input = Components.Schemas.CompetitionInput

    @Test(arguments: Backend.available)
    func spec002_aSpecificWorkoutCountsOnlyItsType_andSpec004_theFastestPaceOverAKilometreWins(_ backend: Backend)
        async throws
    {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com")
            let ben = try await app.person("ben@example.com")
            func made(_ input: Input) async throws -> String {
                var input = input
                (input.visibility, input.durationDays) = (._public, 2)
                let id = try await ChallengeTests.create(app, as: ana, input).id
                _ = try await ChallengeTests.join(app, id, as: ben).ok
                return id
            }
            let cycling = try await made(Input(name: "Cycle", _type: .specificWorkout, workoutTypes: [.cycling]))
            let pace = try await made(Input(name: "Pace", _type: .fastestPace))
            app.clock.advance(by: 6 * 3600)
            // Ana: the fastest a 4:10/km over 0.8 km (too short to count), then 4:50/km over 5 km.
            // Ben: two rides at 3:00/km (a ride's pace does not count) and a 4:30/km kilometre.
            typealias Plan = (String, Double, Double, Components.Schemas.WorkoutType)
            let plans: [(TestPerson, [Plan])] = [
                (ana, [("a1", 0.8, 200, .running), ("a2", 5, 1450, .running), ("a3", 3, 1200, .walking)]),
                (ben, [("b1", 20, 3600, .cycling), ("b2", 15, 2700, .cycling), ("b3", 1, 270, .running)]),
            ]
            for (person, workouts) in plans {
                for (index, workout) in workouts.enumerated() {
                    let input = Components.Schemas.ActivityInput(
                        clientEventId: workout.0,
                        _type: .workout,
                        occurredAt: app.clock.now.addingTimeInterval(-Double(5 - index) * 3600),
                        source: .app,
                        workout: .init(_type: workout.3, durationSeconds: workout.2, distanceMeters: workout.1 * 1000)
                    )
                    try await ChallengeTests.record(app, input, as: person)
                }
            }
            let board = try await ChallengeTests.board(app, pace, as: ana)
            #expect(board.rows.map(\.value) == [270, 290], "seconds per km, the best first: \(board)")
            #expect(board.competition.rule.unit == .secondsPerKm)
            let cycled = try await ChallengeTests.board(app, cycling, as: ana)
            #expect(cycled.rows.compactMap(\.value) == [2], "Ben's two rides; Ana's runs count for nothing")
            try await app.settleChallenges(after: 2)
            #expect(try await app.winners(of: pace, as: ana) == [ben.id])
            #expect(try await app.winners(of: cycling, as: ana) == [ben.id])
        }
    }

    @Test(arguments: Backend.available)
    func spec002_anXPChallengeCountsPointsEarnedInItsSpan_notStakes(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "famefit") { app async throws in
            let ana = try await app.person("ana@example.com", xp: 1_000)
            let ben = try await app.person("ben@example.com", xp: 1_000)
            app.clock.advance(by: 1)  // the seeded XP was earned before the span
            let id = try await ChallengeTests.create(
                app,
                as: ana,
                Input(name: "XP race", _type: .xp, visibility: ._public, durationDays: 1, stake: 200)
            ).id
            _ = try await ChallengeTests.join(app, id, as: ben).ok
            app.clock.advance(by: 3 * 3600)
            // famefit pays XP per workout by type, duration and calories: Ben's longer one earns more.
            for (person, minutes) in [(ana, 20.0), (ben, 60.0)] {
                let run = app.workout(
                    "w-\(person.id)",
                    km: minutes / 6,
                    minutes: minutes,
                    startedMinutesAgo: minutes + 5
                )
                try await ChallengeTests.record(app, run, as: person)
            }
            let board = try await ChallengeTests.board(app, id, as: ana)
            #expect(
                board.rows.first?.userId == ben.id && (board.rows.first?.value ?? 0) > (board.rows.last?.value ?? 0),
                "\(board)"
            )
            // Each value is what the ledger credited since the start, the −200 stake and the seeded XP left out.
            for person in [ana, ben] {
                let earned = try await app.store.read { tx in try await tx.points.allLines(of: User.ID(person.id)) }
                    .filter { $0.reason != .stake && $0.sourceKey != "seed" }.reduce(0) { $0 + $1.amount }
                let value = board.rows.first { $0.userId == person.id }?.value
                #expect(
                    earned > 0 && value == Double(earned),
                    "\(person.email): \(value ?? -1) against \(earned) earned"
                )
            }
            try await app.settleChallenges(after: 1)
            #expect(try await app.winners(of: id, as: ben) == [ben.id])
        }
    }

    /// Points earned without a new activity — a goal seen met, a claim of the day's data — move an XP
    /// challenge's board in the transaction that credits them.
    @Test(arguments: Backend.available)
    func anXPChallengesBoardMovesWithPointsFromGoalsAndClaims(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "fitcircle") { app async throws in
            let ana = try await app.person("ana@example.com")
            let id = try await ChallengeTests.create(
                app,
                as: ana,
                Input(name: "XP day", _type: .xp, visibility: ._public, durationDays: 1)
            ).id
            app.clock.advance(by: 60)
            let steps = Components.Schemas.ActivityInput(
                clientEventId: "steps-1",
                _type: .steps,
                occurredAt: app.clock.now,
                source: .healthkit,
                steps: 12_000
            )
            try await ChallengeTests.record(app, steps, as: ana)
            func value() async throws -> Double? { try await ChallengeTests.board(app, id, as: ana).rows.first?.value }
            let before = try await value() ?? 0
            // the step goal is seen met: +50
            _ = try await app.api(as: ana).getDailyGoals().ok
            let afterGoal = try #require(try await value())
            #expect(afterGoal == before + 50)
            let circle = try await app.api(as: ana).createFitCircle(body: .json(.init(name: "Solo", metric: .steps)))
                .created.body.json
            switch try await app.api(as: ana).submitToFitCircle(path: .init(id: circle.id)) {
            case .created, .ok: break
            case let other: Issue.record("the claim answered \(other)")
            }
            #expect(try await value() == afterGoal + 5)  // the claim's 5
        }
    }

    /// A public challenge of a day staking 100 XP (most activities), made by `maker` and joined by `others`.
    static func staked(_ app: TestApp, _ name: String, by maker: TestPerson, joinedBy others: [TestPerson])
        async throws -> Components.Schemas.Competition
    {
        let created = try await ChallengeTests.create(
            app,
            as: maker,
            Input(name: name, _type: .mostActivities, visibility: ._public, durationDays: 1, stake: 100)
        )
        for person in others { _ = try await ChallengeTests.join(app, created.id, as: person).ok }
        return created
    }

    /// A pot owed to more people than one payout transaction holds is paid in parts, each person once, the
    /// escrow emptied and its books balanced (here one person a transaction, three stakes given back).
    @Test(arguments: Backend.available)
    func escrow_aPotPaidInPartsPaysEachPersonOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com", xp: 300)
            let ben = try await app.person("ben@example.com", xp: 300)
            let cleo = try await app.person("cleo@example.com", xp: 300)
            let created = try await Self.staked(app, "Trio", by: ana, joinedBy: [ben, cleo])
            let id = Challenge.ID(created.id)
            // Nobody moves: nobody wins, and all three are owed their stake back.
            app.clock.advance(by: 86_400 + Challenge.settlementGrace + 3600)
            try await app.engine.challenges.settle(id)
            let owed = try await app.store.read { tx in try await tx.challenges.owed(in: [id]) }
            #expect(owed.count == 3)
            try await app.engine.challenges.payOut([id], peopleAtOnce: 1)
            try await app.engine.challenges.payOut([id], peopleAtOnce: 1)  // again: nothing left to pay
            let settled = try await app.api(as: ana).getCompetition(path: .init(id: created.id)).ok.body.json
            #expect(settled.status == .settled && settled.escrow == 0, "\(settled)")
            let balances = [
                try await app.balance(of: ana), try await app.balance(of: ben), try await app.balance(of: cleo),
            ]
            #expect(balances == [300, 300, 300], "\(balances)")
            #expect(try await app.engine.replay.escrowDifferences().isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func escrow_aSettlementRunTwiceAtOncePaysOnce_andAPayoutLeftByACrashIsPaidLater(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com", xp: 300)
            let ben = try await app.person("ben@example.com", xp: 300)
            let created = try await Self.staked(app, "Duel", by: ana, joinedBy: [ben])
            let id = Challenge.ID(created.id)
            app.clock.advance(by: 3600)
            try await ChallengeTests.record(app, app.workout("a", km: 3, minutes: 20, startedMinutesAgo: 30), as: ana)
            app.clock.advance(by: 86_400 + Challenge.settlementGrace)
            // Two nodes settle at once; then the process dies before any payout runs.
            async let first: Void = app.engine.challenges.settle(id)
            async let second: Void = app.engine.challenges.settle(id)
            _ = try await (first, second)
            let held = try await app.api(as: ana).getCompetition(path: .init(id: created.id)).ok.body.json
            #expect(held.status == .settled && held.escrow == 200, "still in escrow until paid: \(held)")
            #expect(try await app.engine.replay.escrowDifferences().isEmpty)
            // The payout job, run twice at once after the restart, pays the pot once.
            async let payA: Void = app.engine.challenges.payOut(id)
            async let payB: Void = app.engine.challenges.payOut(id)
            _ = try await (payA, payB)
            try await app.runJobs()
            let (anaXP, benXP) = (try await app.balance(of: ana), try await app.balance(of: ben))
            #expect(anaXP == 400 && benXP == 200, "\(anaXP) \(benXP)")
            #expect(try await app.engine.replay.escrowDifferences().isEmpty)
        }
    }
}
