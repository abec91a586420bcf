import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

struct ActivityLedgerTests {
    typealias Input = Components.Schemas.ActivityInput

    static func steps(
        _ id: String,
        _ count: Int,
        at date: Date,
        source: Components.Schemas.ActivitySource = .healthkit,
        zone: String? = nil
    ) -> Input {
        Input(clientEventId: id, _type: .steps, occurredAt: date, timeZone: zone, source: source, steps: count)
    }

    static func running(_ id: String, seconds: Double, meters: Double, at date: Date) -> Input {
        Input(
            clientEventId: id,
            _type: .workout,
            occurredAt: date,
            source: .app,
            workout: .init(_type: .running, durationSeconds: seconds, distanceMeters: meters)
        )
    }

    @Test(arguments: Backend.available)
    func anActivityIsRecordedOnceAndItsReplayChangesNothing(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let api = app.api(try await app.onboardedUser())
            let run = Self.running("run-1", seconds: 1800, meters: 5000, at: app.clock.now)
            let created = try await api.recordActivity(body: .json(run)).created.body.json
            let workout = try #require(created.workout)
            #expect(workout.value2.caloriesEstimated)
            #expect((workout.value1.calories ?? 0) > 0)
            #expect(workout.value2.paceSecondsPerKm == 360)
            #expect(created.localDate == "2026-03-02")

            #expect(try await api.recordActivity(body: .json(run)).ok.body.json.id == created.id)

            var different = run
            different.workout?.durationSeconds = 1900
            _ = try await api.recordActivity(body: .json(different)).conflict

            let days = try await api.listDailyTotals(query: .init(from: "2026-03-02", to: "2026-03-02"))
            let day = try #require(try days.ok.body.json.days.first)
            #expect(day.workouts == 1)
            #expect(day.distanceMeters == 5000)
        }
    }

    @Test(arguments: Backend.available)
    func healthDataTotalsAreReplacedByTheLatestReading(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let api = app.api(try await app.onboardedUser())
            let t = app.clock.now
            for (count, offset) in [(4000, -7200.0), (6500, -600.0), (5000, -3600.0)] {
                let sync = Components.Schemas.DailySync(
                    source: .healthkit,
                    occurredAt: t.addingTimeInterval(offset),
                    steps: count
                )
                _ = try await api.syncDailyTotals(body: .json(sync)).ok
            }
            let days = try await api.listDailyTotals().ok.body.json.days
            #expect(days.count == 1)
            #expect(days.first?.steps == 6500)
            #expect(days.first?.syncedSteps == 6500)
        }
    }

    @Test(arguments: Backend.available)
    func aTravellerKeepsEachEventOnTheLocalDateWhereItHappened(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let api = app.api(try await app.onboardedUser(timeZone: "Europe/Paris"))
            // 2026-03-02 10:30 UTC: already the 3rd in Kiritimati (+14), still the 1st in Pago Pago (−11).
            let t = app.clock.now
            for (id, zone) in [
                ("paris", "Europe/Paris"), ("kiritimati", "Pacific/Kiritimati"), ("pago", "Pacific/Pago_Pago"),
            ] {
                let open = Input(
                    clientEventId: id,
                    _type: .appOpen,
                    occurredAt: t.addingTimeInterval(-5400),
                    timeZone: zone
                )
                _ = try await api.recordActivity(body: .json(open)).created
            }
            let list = try await api.listActivities().ok.body.json.items
            let dates = Dictionary(uniqueKeysWithValues: list.map { ($0.clientEventId, $0.localDate) })
            #expect(dates == ["paris": "2026-03-02", "kiritimati": "2026-03-03", "pago": "2026-03-01"])
        }
    }

    @Test(arguments: Backend.available)
    func aBatchSentThreeTimesInPartsCreatesEachEventOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let api = app.api(try await app.onboardedUser())
            let t = app.clock.now
            let events =
                (0..<30).map {
                    Self.steps("sync-\($0)", 1000 + $0 * 10, at: t.addingTimeInterval(-Double($0) * 86_400 / 3))
                }
                + [Self.steps("bad", 200_000, at: t)]
            let first = try await api.recordActivityBatch(body: .json(.init(events: events))).ok.body.json
            #expect(first.created == 30)
            #expect(first.rejected == 1)
            let rejected = first.results.last
            #expect(rejected?.status == .rejected)
            #expect(rejected?.problem?.fields.first == "events[30].steps")

            // The client crashed and does not know what arrived: it sends everything again, in parts.
            for part in [Array(events[0..<10]), Array(events[5..<31]), events] {
                let replay = try await api.recordActivityBatch(body: .json(.init(events: part))).ok.body.json
                #expect(replay.created == 0)
                #expect(replay.replayed == part.filter { $0.clientEventId != "bad" }.count)
            }
            #expect(try await api.listActivities(query: .init(limit: 200)).ok.body.json.items.count == 30)
            #expect(try await app.engine.replay.run().isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func aBatchOfMoreThanFiveHundredIsRefusedWhole(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let api = app.api(try await app.onboardedUser())
            let events = (0..<501).map { Self.steps("e\($0)", 10, at: app.clock.now, source: .manual) }
            let refused = try await api.recordActivityBatch(body: .json(.init(events: events)))
            #expect(try refused.unprocessableContent.body.applicationProblemJson.fields.first == "events")
            #expect(try await api.listActivities().ok.body.json.items.isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func deletingAnActivityRecomputesItsDay(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let api = app.api(try await app.onboardedUser())
            let manual = Self.steps("m1", 1200, at: app.clock.now, source: .manual)
            let id = try await api.recordActivity(body: .json(manual)).created.body.json.id
            _ = try await api.deleteActivity(path: .init(id: id)).noContent
            _ = try await api.getActivity(path: .init(id: id)).notFound
            _ = try await api.deleteActivity(path: .init(id: id)).notFound
            #expect(try await api.listDailyTotals().ok.body.json.days.first?.steps == 0)
            #expect(try await app.engine.replay.run().isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func nobodySeesAnotherUsersActivities(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = app.api(try await app.onboardedUser("ana@example.com"))
            let bo = app.api(try await app.onboardedUser("bo@example.com"))
            let id = try await ana.recordActivity(body: .json(Self.steps("a", 10, at: app.clock.now))).created.body.json
                .id
            _ = try await bo.getActivity(path: .init(id: id)).notFound
            _ = try await bo.deleteActivity(path: .init(id: id)).notFound
            #expect(try await bo.listActivities().ok.body.json.items.isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func listingPagesThroughEverythingOnceWithFilters(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let api = app.api(try await app.onboardedUser())
            let t = app.clock.now
            var events = (0..<7).map { Self.steps("s\($0)", 100, at: t.addingTimeInterval(-Double($0) * 3600)) }
            events.append(Input(clientEventId: "open", _type: .appOpen, occurredAt: t))
            _ = try await api.recordActivityBatch(body: .json(.init(events: events))).ok
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await api.listActivities(query: .init(_type: .steps, cursor: cursor, limit: 3)).ok.body
                    .json
                seen += page.items.map(\.clientEventId)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == (0..<7).map { "s\($0)" })
            _ = try await api.listActivities(query: .init(limit: 0)).unprocessableContent
            _ = try await api.listActivities(query: .init(cursor: "nonsense")).unprocessableContent
            _ = try await api.listActivities(query: .init(from: "yesterday")).unprocessableContent
        }
    }

    @Test(arguments: Backend.available)
    func impossibleInputIsAProblemAndChangesNothing(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let api = app.api(try await app.onboardedUser())
            let t = app.clock.now
            let cases: [(Input, String)] = [
                (Self.steps("a", 100_001, at: t), "steps"),
                (Self.steps("b", 10, at: t.addingTimeInterval(600)), "occurredAt"),
                (Self.steps("c", 10, at: t, zone: "Mars/Olympus"), "timeZone"),
                (Self.running("d", seconds: 300, meters: 5000, at: t), "distanceMeters"),
                (
                    Input(
                        clientEventId: "e",
                        _type: .workout,
                        occurredAt: t,
                        workout: .init(_type: .other, durationSeconds: 90_000)
                    ), "durationSeconds"
                ),
                (Input(clientEventId: "f", _type: .weight, occurredAt: t, weightKg: 12), "weightKg"),
                (Input(clientEventId: "g", _type: .weight, occurredAt: t), "weightKg"),
            ]
            for (input, field) in cases {
                let refused = try await api.recordActivity(body: .json(input))
                #expect(try refused.unprocessableContent.body.applicationProblemJson.fields.first == field, "\(input)")
            }
            #expect(try await api.listActivities().ok.body.json.items.isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func aSuddenSpikeIsAcceptedAndFlagged(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let api = app.api(try await app.onboardedUser())
            let t = app.clock.now
            _ = try await api.recordActivity(body: .json(Self.steps("y", 8000, at: t.addingTimeInterval(-86_400))))
                .created
            let spike = try await api.recordActivity(body: .json(Self.steps("t", 45_000, at: t))).created.body.json
            #expect(spike.flags == ["steps_spike"])
        }
    }

    @Test(arguments: Backend.available)
    func statisticsSumTheLedgerAndKeepPersonalRecords(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let api = app.api(try await app.onboardedUser())
            let t = app.clock.now
            let runs = [(1800.0, 5000.0), (3000.0, 10_000.0), (1500.0, 5000.0)].enumerated().map { index, run in
                Self.running(
                    "run\(index)",
                    seconds: run.0,
                    meters: run.1,
                    at: t.addingTimeInterval(-Double(index) * 86_400)
                )
            }
            _ = try await api.recordActivityBatch(body: .json(.init(events: runs))).ok
            let stats = try await api.getUserStats().ok.body.json
            #expect(stats.totalDistanceMeters == 20_000)
            #expect(stats.totalActivities == 3)
            #expect(stats.activeDays == 3)
            let running = stats.personalRecords.first
            #expect(running?.longestDistanceMeters == 10_000)
            #expect(running?.longestDurationSeconds == 3000)
            #expect(running?.fastestPaceSecondsPerKm == 300)
        }
    }

    @Test(arguments: Backend.available)
    func anIdempotencyKeyReplaysTheFirstResponseAndRefusesAnotherBody(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            // Raw requests: the replay is compared byte for byte, and its header is not in the typed answer.
            let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "key-1"]
            let body: [String: Any] = [
                "clientEventId": "k1", "type": "steps", "steps": 500, "source": "manual",
                "occurredAt": iso8601(app.clock.now),
            ]
            let first = try await app.request(.post, "/api/activities", token: token, json: body, headers: key)
            #expect(first.status == .created)
            let second = try await app.request(.post, "/api/activities", token: token, json: body, headers: key)
            #expect(second.status == .created)
            #expect(second.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(second.text == first.text)
            let other = try await app.api(token).recordActivity(
                headers: .init(idempotencyKey: "key-1"),
                body: .json(Self.steps("k2", 1, at: app.clock.now))
            )
            #expect(try other.unprocessableContent.body.applicationProblemJson.fields.first == "Idempotency-Key")
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
            let api = app.api(try await app.onboardedUser())
            let t = app.clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let steps = Self.steps(
                            "m\(index)",
                            100,
                            at: t.addingTimeInterval(-Double(index)),
                            source: .manual
                        )
                        _ = try await api.recordActivity(body: .json(steps)).created
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await api.listDailyTotals().ok.body.json.days.first?.manualSteps == 2000)
            #expect(try await app.engine.replay.run().isEmpty)
        }
    }
}
