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
        try await withTestEngine(backend) { test async throws in
            let inputs = Self.inputs(seed: seed, now: test.clock.now)
            let ana = try await test.account("ana@example.com")
            let bo = try await test.account("bo@example.com")

            // Ana sends everything once, in order, one by one.
            for input in inputs {
                _ = try await test.engine.activities.record(input, for: ana)
            }
            // Bo sends the same events shuffled, duplicated and split into random batches, some sent twice.
            var random = SeededRandom(seed: seed &+ 100)
            var stream = inputs + inputs.prefix(Int.random(in: 0...inputs.count, using: &random))
            stream.shuffle(using: &random)
            while !stream.isEmpty {
                let batch = Array(stream.prefix(Int.random(in: 1...8, using: &random)))
                stream.removeFirst(batch.count)
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    let outcomes = try await test.engine.activities.recordBatch(batch, for: bo)
                    #expect(outcomes.allSatisfy { $0.event != nil })
                }
            }
            // Cleo's device sends the same shuffled, duplicated batches all at once, so group commit writes
            // several of them (and the same client ids twice) in one transaction.
            let cleo =
                try await test.account("cleo@example.com")
            var concurrent = inputs + inputs.prefix(Int.random(in: 1...inputs.count, using: &random))
            concurrent.shuffle(using: &random)
            let batches = stride(from: 0, to: concurrent.count, by: 3).map {
                Array(concurrent[$0..<min($0 + 3, concurrent.count)])
            }
            try await withThrowingTaskGroup(of: [Activities.Outcome].self) { group in
                for batch in batches {
                    group.addTask { try await test.engine.activities.recordBatch(batch, for: cleo) }
                }
                for try await outcomes in group {
                    #expect(outcomes.allSatisfy { $0.event != nil })
                }
            }
            let anaDays = try await Self.state(of: ana, in: test.store)
            let boDays = try await Self.state(of: bo, in: test.store)
            let cleoDays = try await Self.state(of: cleo, in: test.store)
            #expect(!anaDays.isEmpty)
            #expect(anaDays == boDays)
            #expect(anaDays == cleoDays)
            #expect(try await test.engine.replay.run() == [])
            #expect(try await test.engine.replay.sendHabitDifferences().map(\.description) == [])
        }
    }

    @Test(arguments: Backend.available)
    func replayFindsAndFixesADayThatDrifted(_ backend: Backend) async throws {
        try await withTestEngine(backend) { test async throws in
            let user = try await test.account("ana@example.com")
            _ = try await test.engine.activities.record(
                ActivityInput(
                    clientEventID: "s",
                    occurredAt: test.clock.now,
                    source: .healthkit,
                    payload: .steps(.init(steps: 4000))
                ),
                for: user
            )
            var day = try #require(try await Self.state(of: user, in: test.store).first)
            day.steps = 99_999
            let drifted = day
            try await test.store.transaction { try await $0.activities.save([(user, drifted)], at: test.clock.now) }

            let differences = try await test.engine.replay.run()
            #expect(differences.count == 1)
            #expect(differences.first?.stored?.steps == 99_999)
            #expect(differences.first?.replayed?.steps == 4000)
            #expect(try await test.engine.replay.run(fix: true).count == 1)
            #expect(try await test.engine.replay.run() == [])
        }
    }
}
