import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// `fitcircle simulate` (issue 24): the demo's history replayed under two freezes a month, writing nothing.
/// On spec 003's app-open streak (no freeze; a missed day resets) it keeps the streaks Chloé lost to one missed
/// day and Ben to two days of one week. On spec 000's check-in streak (a freeze a week lets a day be missed;
/// a day missed without one resets) it keeps Ben's. Ana's two misses in a row are lost under both.
struct SimulationTests {
    static func candidate(_ name: String) throws -> RuleProfile {
        try RuleProfileLoader.parse(
            String(
                contentsOf: profilesDirectory.appendingPathComponent("candidates/\(name)-two-freezes-a-month.yaml"),
                encoding: .utf8
            ),
            file: name
        )
    }

    @Test(arguments: Backend.available)
    func twoFreezesAMonthKeepTheAppOpenStreakTheDemoLost(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "astrofriends") { app async throws in
            #expect(try await DemoData.seed(app.engine, now: app.clock.now))
            let chloe = try await app.devSignIn(DemoData.accounts[2].email).user.id
            let token = try await app.devSignIn(DemoData.accounts[2].email).accessToken
            // The app's profile lost Chloé's streak to the day she missed: the ledger says so.
            let history = try await app.request(
                .get,
                "/api/streaks/history?from=2026-02-08&to=2026-03-02",
                token: token
            ).jsonObject()
            let statuses = (history["entries"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? String }
            #expect(statuses.contains("reset"), "\(history)")

            let stored = try await Self.snapshot(app)
            let today = LocalDate(app.clock.now, in: .gmt)
            let simulation = Simulation(store: app.store, actual: app.engine.profile, clock: app.clock.wallClock)
            let progress = ProgressLog()
            let report = try await simulation.run(
                candidate: try Self.candidate("astrofriends"),
                from: today.adding(days: -21),
                to: today
            ) { done, total in
                progress.add(done, total)
            }
            #expect(report.people == 3)
            #expect(progress.values.count == 3 && progress.values.last.map { $0.0 == $0.1 } == true)
            let ben = try await app.devSignIn(DemoData.accounts[1].email).user.id
            #expect(Set(report.keptOnlyByCandidate) == [User.ID(chloe), User.ID(ben)], "\(report)")
            #expect(report.keptOnlyByActual.isEmpty)
            // Actual: Ana twice (the first miss, and the first of the two in a row), Ben twice, Chloé once;
            // candidate: Ana's two in a row.
            #expect(report.actual.streaksLost == 5 && report.candidate.streaksLost == 1, "\(report)")
            #expect(report.actual.freezesUsed == 0 && report.candidate.freezesUsed == 5, "\(report)")
            #expect(report.candidate.currentStreaks > report.actual.currentStreaks)
            // Nothing was written.
            #expect(try await Self.snapshot(app) == stored)

            // A candidate whose streak counts something else cannot replay this history.
            var other = try Self.candidate("astrofriends")
            other.streaks.basis = .checkIn
            await #expect(throws: ValidationError.self) {
                try await simulation.run(candidate: other, from: nil, to: nil)
            }
        }
    }

    @Test(arguments: Backend.available)
    func twoFreezesAMonthKeepTheCheckInStreakBenLostToASecondMissInAWeek(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            #expect(try await DemoData.seed(app.engine, now: app.clock.now))
            let ben = try await app.devSignIn(DemoData.accounts[1].email).user.id
            let today = LocalDate(app.clock.now, in: .gmt)
            let report = try await Simulation(store: app.store, actual: app.engine.profile, clock: app.clock.wallClock)
                .run(candidate: try Self.candidate("fitcircle"), from: today.adding(days: -21), to: today)
            #expect(
                report.actual.streaksLost == 2 && report.candidate.streaksLost == 1,
                "Ana's two days in a row, and Ben's second miss: \(report)"
            )
            #expect(report.keptOnlyByCandidate == [User.ID(ben)] && report.keptOnlyByActual.isEmpty, "\(report)")
            // Actual: a freeze for Ana's, Ben's and Chloé's first misses; candidate: also Ana's and Ben's second.
            #expect(report.actual.freezesUsed == 3 && report.candidate.freezesUsed == 5, "\(report)")
            #expect(
                report.candidate.stepGoalsMet == report.actual.stepGoalsMet
                    && report.candidate.scheduledNotifications == report.actual.scheduledNotifications
            )
        }
    }

    /// Every derived row a replay could touch, counted.
    static func snapshot(_ app: TestApp) async throws -> [Int] {
        try await app.store.read { tx in
            var counts: [Int] = []
            // In a fixed order: the query's UNION has none, and PostgreSQL's plan may change between two reads.
            for user in try await tx.activities.usersWithActivities().sorted(by: { $0.rawValue < $1.rawValue }) {
                counts.append(
                    try await tx.streaks.entries(
                        of: user,
                        from: LocalDate(iso: "2026-01-01")!,
                        to: LocalDate(iso: "2026-12-31")!
                    ).count
                )
                counts.append(
                    try await tx.goals.list(
                        of: user,
                        span: .daily,
                        from: LocalDate(iso: "2026-01-01")!,
                        to: LocalDate(iso: "2026-12-31")!
                    ).count
                )
            }
            return counts
        }
    }
}

/// What a run told of its progress.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [(Int, Int)] = []
    var values: [(Int, Int)] { self.lock.withLock { self.log } }
    func add(_ done: Int, _ total: Int) { self.lock.withLock { self.log.append((done, total)) } }
}
