import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Points, the daily push-up cap, levels and the ledger through the API (spec 001, POINTS-01…05 and
/// ANTCHEAT-01…02), with replay as the oracle after each story.
struct PointsTests {
    static let day: TimeInterval = 86_400

    static func token(_ app: TestApp) async throws -> String {
        try await app.devSignIn("ana@example.com")["accessToken"] as! String
    }

    /// Records one push-up series now (or at `at`) and returns the answer's JSON.
    @discardableResult
    static func series(_ app: TestApp, _ id: String, number: Int, reps: Int, at: Date? = nil) async throws -> [String:
        Any]
    {
        let response = try await app.request(
            .post,
            "/api/activities",
            token: try await Self.token(app),
            json: [
                "clientEventId": id, "type": "workout",
                "occurredAt": ISO8601DateFormatter().string(from: at ?? app.clock.now),
                "workout": ["type": "pushups", "durationSeconds": 60, "series": number, "reps": reps],
            ]
        )
        #expect(response.status == .created || response.status == .ok, "\(response.text)")
        return try response.jsonObject()
    }

    static func expectReplayAgrees(_ app: TestApp) async throws {
        #expect(try await app.engine.replay.rewardDifferences().map(\.description) == [])
        #expect(try await app.engine.replay.run() == [])
        #expect(try await app.engine.replay.sendHabitDifferences().map(\.description) == [])
    }

    static func stats(_ app: TestApp) async throws -> [String: Any] {
        try #require(
            try await app.request(.get, "/api/user/stats", token: try await Self.token(app)).jsonObject()["points"]
                as? [String: Any]
        )
    }

    static func userID(_ app: TestApp) async throws -> String {
        try #require((try await app.devSignIn("ana@example.com")["user"] as? [String: Any])?["id"] as? String)
    }

    @Test(arguments: Backend.available)
    func aSeriesThatCrossesTheCapEarnsOnlyTheResidueAndLaterOnesNothing(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            // Daily goal 50 (the defaults), level 1: the cap is 75.
            #expect(try await Self.stats(app)["pushupCap"] as? Int == 75)
            let start = app.clock.now
            try await Self.series(app, "a", number: 1, reps: 60)
            let crossing = try #require(
                try await Self.series(app, "b", number: 2, reps: 30)["reward"] as? [String: Any]
            )
            #expect(crossing["counted"] as? Int == 15)
            #expect(crossing["excess"] as? Int == 15)
            #expect(crossing["capReached"] as? Bool == true)
            #expect(crossing["message"] as? String == "Daily cap reached. Push-ups still tracked but not rewarded.")
            // 10 × (15 × 0.3 + 2 × 0.8)
            #expect((crossing["lines"] as? [[String: Any]])?.first?["amount"] as? Int == 61)
            let over = try #require(try await Self.series(app, "c", number: 3, reps: 10)["reward"] as? [String: Any])
            #expect(over["counted"] as? Int == 0)
            #expect(over["points"] as? Int == 0)

            // Backdating into yesterday's closed, capped day counts nothing either.
            app.clock.advance(by: Self.day)
            try await Self.series(app, "late", number: 4, reps: 20, at: app.clock.now.addingTimeInterval(-Self.day))
            let today = try #require(try await Self.stats(app)["today"] as? [String: Any])
            #expect(today["pushupsCounted"] as? Int == 0)
            let days = try await app.request(
                .get,
                "/api/points/daily?from=2026-03-02&to=2026-03-03",
                token: try await Self.token(app)
            ).jsonObject()
            let first = try #require((days["days"] as? [[String: Any]])?.first)
            #expect(first["date"] as? String == "2026-03-02")
            #expect(first["pushupsCounted"] as? Int == 75)
            #expect(first["pushupsExcess"] as? Int == 45)
            // Tracked, not counted: the day still holds every rep.
            let tracked = try await app.request(
                .get,
                "/api/tracking/daily?from=2026-03-02&to=2026-03-02",
                token: try await Self.token(app)
            )
            #expect(((try tracked.jsonObject()["days"] as? [[String: Any]])?.first)?["pushupReps"] as? Int == 120)

            // A replay of the same client id credits nothing again.
            let again = try await Self.series(app, "a", number: 1, reps: 60, at: start)
            #expect(again["reward"] == nil)
            try await Self.expectReplayAgrees(app)
        }
    }

    @Test(arguments: Backend.available)
    func twentyConcurrentSeriesNeverCountMoreThanTheCapAndUnlockABadgeOnce(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let token = try await Self.token(app)
            let occurredAt = ISO8601DateFormatter().string(from: app.clock.now)
            let rewards = try await withThrowingTaskGroup(of: (counted: Int, excess: Int).self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let response = try await app.request(
                            .post,
                            "/api/activities",
                            token: token,
                            json: [
                                "clientEventId": "c\(index)", "type": "workout", "occurredAt": occurredAt,
                                "workout": ["type": "pushups", "durationSeconds": 60, "series": index + 1, "reps": 10],
                            ]
                        )
                        let reward = try #require(try response.jsonObject()["reward"] as? [String: Any])
                        return (try #require(reward["counted"] as? Int), try #require(reward["excess"] as? Int))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(rewards.reduce(0) { $0 + $1.counted } == 75)
            #expect(rewards.reduce(0) { $0 + $1.excess } == 125)
            let lines = try await app.store.read { tx in
                try await tx.points.allLines(of: User.ID(try await Self.userID(app)))
            }
            #expect(lines.filter { $0.sourceKey == "badge:first-series" }.count == 1)
            #expect(lines.filter { $0.reason == .series }.count == 20)
            let today = try #require(try await Self.stats(app)["today"] as? [String: Any])
            #expect(today["pushupsCounted"] as? Int == 75)
            try await Self.expectReplayAgrees(app)
        }
    }

    @Test(arguments: Backend.available)
    func aBatchIsCreditedInOrderAndCannotBypassTheCap(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let occurredAt = ISO8601DateFormatter().string(from: app.clock.now)
            let events = (1...10).map { number -> [String: Any] in
                [
                    "clientEventId": "b\(number)", "type": "workout", "occurredAt": occurredAt,
                    "workout": ["type": "pushups", "durationSeconds": 60, "series": number, "reps": 10],
                ]
            }
            for _ in 1...2 {  // the second time, every item is a replay and nothing more is credited
                let response = try await app.request(
                    .post,
                    "/api/activities/batch",
                    token: try await Self.token(app),
                    json: ["events": events]
                )
                #expect(response.status == .ok, "\(response.text)")
            }
            let lines = try await app.store.read { tx in
                try await tx.points.allLines(of: User.ID(try await Self.userID(app)))
            }
            let series = lines.filter { $0.reason == .series }
            #expect(series.map(\.counted) == [10, 10, 10, 10, 10, 10, 10, 5, 0, 0])
            #expect(series.map(\.excess) == [0, 0, 0, 0, 0, 0, 0, 5, 10, 10])
            try await Self.expectReplayAgrees(app)
        }
    }

    @Test(arguments: Backend.available)
    func deletingASeriesTakesItsPointsBackWithAReversalLine(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let created = try await Self.series(app, "x", number: 1, reps: 20)
            let id = try #require(created["id"] as? String)
            let earned = try #require((created["reward"] as? [String: Any])?["points"] as? Int)
            #expect(
                try await app.request(.delete, "/api/activities/\(id)", token: try await Self.token(app)).status
                    == .noContent
            )
            let ledger = try #require(
                try await app.request(.get, "/api/points/ledger", token: try await Self.token(app)).jsonObject()[
                    "items"
                ] as? [[String: Any]]
            )
            #expect(ledger.first?["reason"] as? String == "reversal")
            #expect(ledger.first?["amount"] as? Int == -68)  // 10 × (20 × 0.3 + 0.8)
            #expect(ledger.first?["counted"] as? Int == -20)
            let stats = try await Self.stats(app)
            #expect(stats["totalPoints"] as? Int == earned - 68)  // the badge stays
            #expect((stats["counters"] as? [String: Any])?["pushups"] as? Int == 0)
            // The freed room under the cap counts for the next series.
            let next = try #require(try await Self.series(app, "y", number: 2, reps: 75)["reward"] as? [String: Any])
            #expect(next["counted"] as? Int == 75)
            try await Self.expectReplayAgrees(app)
        }
    }

    @Test(arguments: Backend.available)
    func replayFindsTotalsThatDriftedFromTheLedger(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            try await Self.series(app, "s", number: 5, reps: 5)
            let user = User.ID(try await Self.userID(app))
            try await app.store.transaction { tx in
                var stats = try #require(try await tx.points.stats(of: user))
                stats.totalPoints += 7
                stats.counters[.pushups] = 6
                try await tx.points.save(stats, of: user, at: app.clock.now)
            }
            let problems = try await app.engine.replay.rewardDifferences().map(\.problem)
            #expect(problems.contains("total points: stored 72, the ledger sums to 65"))
            #expect(problems.contains("counter pushups: stored 6, the ledger and events make 5"))
        }
    }

    @Test(arguments: Backend.available)
    func ledgerPagesWalkEveryLineOnceAndBadInputNamesItsField(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            for number in 1...5 { try await Self.series(app, "p\(number)", number: number, reps: 5) }
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await app.request(
                    .get,
                    "/api/points/ledger?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""),
                    token: try await Self.token(app)
                ).jsonObject()
                seen += (page["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                cursor = page["nextCursor"] as? String
            } while cursor != nil
            #expect(seen.count == 6 && Set(seen).count == 6)  // five series and "First Series"
            let bad = try await app.request(
                .get,
                "/api/points/ledger?cursor=abc&limit=0",
                token: try await Self.token(app)
            )
            #expect(bad.status == .unprocessableContent)
            let fields = (try bad.jsonObject()["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
            #expect(fields == ["cursor", "limit"])
        }
    }
}
