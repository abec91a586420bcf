import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Whatever order, split and repetition the same events arrive in, the ledger ends in the same state, and
/// replaying the events gives exactly the stored state.
struct LedgerPropertyTests {
    static func inputs(seed: UInt64, now: Date) -> [ActivityInput] {
        var random = SeededRandom(seed: seed)
        let zones = [
            "Europe/Paris", "America/New_York", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kathmandu",
            "Australia/Lord_Howe",
        ]
        return (0..<Int.random(in: 10...40, using: &random)).map { index in
            // Events over the last four days, often at the same minute so ties are exercised.
            let occurredAt = now.addingTimeInterval(-Double(Int.random(in: 0..<(4 * 96), using: &random)) * 900)
            let zone = zones.randomElement(using: &random)!
            let payload: ActivityPayload
            let source: ActivitySource
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                payload = .steps(.init(steps: Int.random(in: 0...15_000, using: &random)))
                source = [.healthkit, .googleFit, .wearable].randomElement(using: &random)!
            case 1:
                payload = .steps(.init(steps: Int.random(in: 1...3000, using: &random)))
                source = .manual
            case 2:
                payload = .workout(
                    .init(type: .cycling, durationSeconds: Double(Int.random(in: 600...7200, using: &random)))
                )
                source = .app
            case 3:
                payload = .weight(kilograms: Double(Int.random(in: 600...900, using: &random)) / 10)
                source = .manual
            default:
                payload = .water(milliliters: 250)
                source = .manual
            }
            return ActivityInput(
                clientEventID: "e\(index)",
                occurredAt: occurredAt,
                timeZone: zone,
                source: source,
                payload: payload
            )
        }
    }

    /// The days and events a user ends up with.
    static func state(of user: User.ID, in store: Store) async throws -> [DailyTracking] {
        try await store.transaction { tx in
            try await tx.activities.days(
                of: user,
                from: LocalDate(iso: "2026-01-01")!,
                to: LocalDate(iso: "2026-12-31")!
            )
        }
    }

    @Test(arguments: Backend.available, [1, 2, 3, 4, 5] as [UInt64])
    func anyOrderSplitAndRepetitionGivesTheSameStateAndReplayAgrees(_ backend: Backend, seed: UInt64) async throws {
        try await withTestApp(backend) { app async throws in
            let inputs = Self.inputs(seed: seed, now: app.clock.now)
            let ana =
                try await app.devSignIn("ana@example.com").user.id
            let bo = try await app.devSignIn("bo@example.com").user.id

            // Ana sends everything once, in order, one by one.
            for input in inputs {
                _ = try await app.engine.activities.record(input, for: User.ID(ana))
            }
            // Bo sends the same events shuffled, duplicated and split into random batches, some sent twice.
            var random = SeededRandom(seed: seed &+ 100)
            var stream = inputs + inputs.prefix(Int.random(in: 0...inputs.count, using: &random))
            stream.shuffle(using: &random)
            while !stream.isEmpty {
                let batch = Array(stream.prefix(Int.random(in: 1...8, using: &random)))
                stream.removeFirst(batch.count)
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    let outcomes = try await app.engine.activities.recordBatch(batch, for: User.ID(bo))
                    #expect(outcomes.allSatisfy { $0.event != nil })
                }
            }
            // Cleo's device sends the same shuffled, duplicated batches all at once, so group commit writes
            // several of them (and the same client ids twice) in one transaction.
            let cleo =
                try await app.devSignIn("cleo@example.com").user.id
            var concurrent = inputs + inputs.prefix(Int.random(in: 1...inputs.count, using: &random))
            concurrent.shuffle(using: &random)
            let batches = stride(from: 0, to: concurrent.count, by: 3).map {
                Array(concurrent[$0..<min($0 + 3, concurrent.count)])
            }
            try await withThrowingTaskGroup(of: [Activities.Outcome].self) { group in
                for batch in batches {
                    group.addTask { try await app.engine.activities.recordBatch(batch, for: User.ID(cleo)) }
                }
                for try await outcomes in group {
                    #expect(outcomes.allSatisfy { $0.event != nil })
                }
            }
            let anaDays = try await Self.state(of: User.ID(ana), in: app.store)
            let boDays = try await Self.state(of: User.ID(bo), in: app.store)
            let cleoDays = try await Self.state(of: User.ID(cleo), in: app.store)
            #expect(!anaDays.isEmpty)
            #expect(anaDays == boDays)
            #expect(anaDays == cleoDays)
            #expect(try await app.engine.replay.run() == [])
            #expect(try await app.engine.replay.sendHabitDifferences().map(\.description) == [])
        }
    }

    @Test(arguments: Backend.available)
    func replayFindsAndFixesADayThatDrifted(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let id = try await app.devSignIn().user.id
            let user = User.ID(id)
            _ = try await app.engine.activities.record(
                ActivityInput(
                    clientEventID: "s",
                    occurredAt: app.clock.now,
                    source: .healthkit,
                    payload: .steps(.init(steps: 4000))
                ),
                for: user
            )
            var day = try #require(try await Self.state(of: user, in: app.store).first)
            day.steps = 99_999
            let drifted = day
            try await app.store.transaction { try await $0.activities.save([(user, drifted)], at: app.clock.now) }

            let differences = try await app.engine.replay.run()
            #expect(differences.count == 1)
            #expect(differences.first?.stored?.steps == 99_999)
            #expect(differences.first?.replayed?.steps == 4000)
            #expect(try await app.engine.replay.run(fix: true).count == 1)
            #expect(try await app.engine.replay.run() == [])
        }
    }
}
