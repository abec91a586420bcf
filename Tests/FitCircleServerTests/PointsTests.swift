import FitCircleClient
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

    static func stats(_ app: TestApp) async throws -> Components.Schemas.PointsStats {
        try await app.api(as: "ana@example.com").getUserStats().ok.body.json.points
    }

    static func userID(_ app: TestApp) async throws -> String {
        try await app.api().signInForDevelopment(body: .json(.init(email: "ana@example.com"))).ok.body.json.user.id
    }

    @Test(arguments: Backend.available)
    func aSeriesThatCrossesTheCapEarnsOnlyTheResidueAndLaterOnesNothing(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            // Daily goal 50 (the defaults), level 1: the cap is 75.
            #expect(try await Self.stats(app).pushupCap == 75)
            let start = app.clock.now
            try await app.recordPushups("a", series: 1, reps: 60)
            let crossing = try #require(try await app.recordPushups("b", series: 2, reps: 30).reward)
            #expect(crossing.counted == 15)
            #expect(crossing.excess == 15)
            #expect(crossing.capReached == true)
            #expect(crossing.message == "Daily cap reached. Push-ups still tracked but not rewarded.")
            // 10 × (15 × 0.3 + 2 × 0.8)
            #expect(crossing.lines.first?.amount == 61)
            let over = try #require(try await app.recordPushups("c", series: 3, reps: 10).reward)
            #expect(over.counted == 0)
            #expect(over.points == 0)

            // Backdating into yesterday's closed, capped day counts nothing either.
            app.clock.advance(by: Self.day)
            try await app.recordPushups("late", series: 4, reps: 20, at: app.clock.now.addingTimeInterval(-Self.day))
            #expect(try await Self.stats(app).today.value1.pushupsCounted == 0)
            let api = try await app.api(as: "ana@example.com")
            let days = try await api.getDailyPoints(query: .init(from: "2026-03-02", to: "2026-03-03")).ok.body.json
            let first = try #require(days.days.first)
            #expect(first.date == "2026-03-02")
            #expect(first.pushupsCounted == 75)
            #expect(first.pushupsExcess == 45)
            // Tracked, not counted: the day still holds every rep.
            let tracked = try await api.listDailyTotals(query: .init(from: "2026-03-02", to: "2026-03-02"))
            #expect(try tracked.ok.body.json.days.first?.pushupReps == 120)

            // A replay of the same client id credits nothing again.
            let again = try await app.recordPushups("a", series: 1, reps: 60, at: start)
            #expect(again.reward == nil)
            #expect(try await app.replayDifferences() == [])
        }
    }

    @Test(arguments: Backend.available)
    func twentyConcurrentSeriesNeverCountMoreThanTheCapAndUnlockABadgeOnce(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let occurredAt = app.clock.now
            let api = try await app.api(as: "ana@example.com")
            let rewards = try await withThrowingTaskGroup(of: (counted: Int, excess: Int).self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let input = Components.Schemas.ActivityInput(
                            clientEventId: "c\(index)",
                            _type: .workout,
                            occurredAt: occurredAt,
                            workout: .init(_type: .pushups, durationSeconds: 60, series: index + 1, reps: 10)
                        )
                        let activity = try await api.recordActivity(body: .json(input)).created.body.json
                        let reward = try #require(activity.reward)
                        return (try #require(reward.counted), try #require(reward.excess))
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
            #expect(try await Self.stats(app).today.value1.pushupsCounted == 75)
            #expect(try await app.replayDifferences() == [])
        }
    }

    @Test(arguments: Backend.available)
    func aBatchIsCreditedInOrderAndCannotBypassTheCap(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let occurredAt = app.clock.now
            let events = (1...10).map { number in
                Components.Schemas.ActivityInput(
                    clientEventId: "b\(number)",
                    _type: .workout,
                    occurredAt: occurredAt,
                    workout: .init(_type: .pushups, durationSeconds: 60, series: number, reps: 10)
                )
            }
            for _ in 1...2 {  // the second time, every item is a replay and nothing more is credited
                let api = try await app.api(as: "ana@example.com")
                _ = try await api.recordActivityBatch(body: .json(.init(events: events))).ok
            }
            let lines = try await app.store.read { tx in
                try await tx.points.allLines(of: User.ID(try await Self.userID(app)))
            }
            let series = lines.filter { $0.reason == .series }
            #expect(series.map(\.counted) == [10, 10, 10, 10, 10, 10, 10, 5, 0, 0])
            #expect(series.map(\.excess) == [0, 0, 0, 0, 0, 0, 0, 5, 10, 10])
            #expect(try await app.replayDifferences() == [])
        }
    }

    @Test(arguments: Backend.available)
    func deletingASeriesTakesItsPointsBackWithAReversalLine(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let created = try await app.recordPushups("x", series: 1, reps: 20)
            let earned = try #require(created.reward?.points)
            let api = try await app.api(as: "ana@example.com")
            _ = try await api.deleteActivity(path: .init(id: created.id)).noContent
            let ledger = try await api.getPointsLedger().ok.body.json.items
            #expect(ledger.first?.reason == .reversal)
            #expect(ledger.first?.amount == -68)  // 10 × (20 × 0.3 + 0.8)
            #expect(ledger.first?.counted == -20)
            let stats = try await Self.stats(app)
            #expect(stats.totalPoints == earned - 68)  // the badge stays
            #expect(stats.counters.additionalProperties["pushups"] == 0)
            // The freed room under the cap counts for the next series.
            #expect(try await app.recordPushups("y", series: 2, reps: 75).reward?.counted == 75)
            #expect(try await app.replayDifferences() == [])
        }
    }

    @Test(arguments: Backend.available)
    func replayFindsTotalsThatDriftedFromTheLedger(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            try await app.recordPushups("s", series: 5, reps: 5)
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
            for number in 1...5 { try await app.recordPushups("p\(number)", series: number, reps: 5) }
            let api = try await app.api(as: "ana@example.com")
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await api.getPointsLedger(query: .init(cursor: cursor, limit: 2)).ok.body.json
                seen += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen.count == 6 && Set(seen).count == 6)  // five series and "First Series"
            // The cursor is read before the page is asked for: a wrong one is named first.
            let bad = try await api.getPointsLedger(query: .init(cursor: "abc", limit: 0))
            #expect(try bad.unprocessableContent.body.applicationProblemJson.fields == ["cursor"])
            let tooMany = try await api.getPointsLedger(query: .init(limit: 201))
            #expect(try tooMany.unprocessableContent.body.applicationProblemJson.fields == ["limit"])
        }
    }
}
