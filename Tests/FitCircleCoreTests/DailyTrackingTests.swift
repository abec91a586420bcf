import FitCircleCore
import FitCircleTesting
import Foundation
import Testing

struct DailyTrackingTests {
    static let day = LocalDate(iso: "2026-03-02")!
    static let t0 = Date(timeIntervalSince1970: 1_772_452_800)

    static func event(
        _ id: String,
        _ payload: ActivityPayload,
        source: ActivitySource = .healthkit,
        at offset: TimeInterval = 0
    ) -> ActivityEvent {
        ActivityEvent(
            id: .init("e-\(id)"),
            userID: .init("u"),
            clientEventID: id,
            occurredAt: Self.t0.addingTimeInterval(offset),
            timeZone: "UTC",
            localDate: Self.day,
            source: source,
            receivedAt: Self.t0,
            payload: payload
        )
    }

    @Test func syncedTotalsAreReplacedNotSummed() {
        let day = DailyTracking.summarize(
            [
                Self.event("a", .steps(.init(steps: 4000)), at: 0),
                Self.event("b", .steps(.init(steps: 6500)), at: 3600),
                Self.event("c", .steps(.init(steps: 5000)), at: 1800),  // older reading arriving late
            ],
            on: Self.day,
            manualSteps: .add
        )
        #expect(day.syncedSteps == 6500)
        #expect(day.steps == 6500)
    }

    @Test func sourcesDoNotAddUpButTheLargestCounts() {
        let day = DailyTracking.summarize(
            [
                Self.event("phone", .steps(.init(steps: 7000))),
                Self.event("watch", .steps(.init(steps: 8200)), source: .wearable),
            ],
            on: Self.day,
            manualSteps: .add
        )
        #expect(day.steps == 8200)
    }

    @Test(arguments: [
        (DailyTracking.ManualSteps.add, 9000), (.max, 6000), (.ignore, 6000),
    ])
    func manualStepsCombineAsTheProfileSays(policy: DailyTracking.ManualSteps, expected: Int) {
        let day = DailyTracking.summarize(
            [
                Self.event("sync", .steps(.init(steps: 6000))),
                Self.event("m1", .steps(.init(steps: 1000)), source: .manual),
                Self.event("m2", .steps(.init(steps: 2000)), source: .manual),
            ],
            on: Self.day,
            manualSteps: policy
        )
        #expect(day.manualSteps == 3000)
        #expect(day.steps == expected)
    }

    @Test func workoutsWeightWaterAndAppOpensAddUpTheirWay() {
        let day = DailyTracking.summarize(
            [
                Self.event(
                    "run",
                    .workout(.init(type: .running, durationSeconds: 1800, distanceMeters: 5000, calories: 300))
                ),
                Self.event(
                    "push",
                    .workout(.init(type: .pushups, durationSeconds: 120, calories: 10, series: 1, reps: 25))
                ),
                Self.event("w1", .weight(kilograms: 80), at: 0),
                Self.event("w2", .weight(kilograms: 79.5), at: 60),
                Self.event("water1", .water(milliliters: 250), source: .manual),
                Self.event("water2", .water(milliliters: 500), source: .manual),
                Self.event("open", .appOpen, source: .app),
            ],
            on: Self.day,
            manualSteps: .add
        )
        #expect(
            day
                == DailyTracking(
                    date: Self.day,
                    weightKg: 79.5,
                    workouts: 2,
                    activeMinutes: 32,
                    distanceMeters: 5000,
                    calories: 310,
                    pushupReps: 25,
                    waterMilliliters: 750,
                    appOpened: true
                )
        )
    }

    /// Any order and any repetition of the same events make the same day.
    @Test(arguments: 0..<200)
    func orderAndRepetitionNeverChangeTheDay(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let events = (0..<Int.random(in: 1...12, using: &random)).map { index in
            Self.randomEvent(index, using: &random)
        }
        let reference = DailyTracking.summarize(events, on: Self.day, manualSteps: .add)
        var shuffled = events.shuffled(using: &random)
        // Duplicates: the store refuses a second event with the same client id; summarise what it keeps.
        shuffled += shuffled.prefix(Int.random(in: 0...shuffled.count, using: &random))
        var seen: Set<String> = []
        let kept = shuffled.filter { seen.insert($0.clientEventID).inserted }
        #expect(DailyTracking.summarize(kept, on: Self.day, manualSteps: .add) == reference)
    }

    static func randomEvent(_ index: Int, using random: inout SeededRandom) -> ActivityEvent {
        let offset = TimeInterval(Int.random(in: 0..<86_400, using: &random) / 600 * 600)  // ties happen
        let sources: [ActivitySource] = [.healthkit, .googleFit, .wearable, .manual]
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return Self.event(
                "s\(index)",
                .steps(.init(steps: Int.random(in: 0...20_000, using: &random))),
                source: sources.randomElement(using: &random)!,
                at: offset
            )
        case 1:
            return Self.event(
                "w\(index)",
                .weight(kilograms: Double(Int.random(in: 600...900, using: &random)) / 10),
                at: offset
            )
        case 2:
            return Self.event(
                "r\(index)",
                .workout(
                    .init(
                        type: .running,
                        durationSeconds: Double(Int.random(in: 600...3600, using: &random)),
                        distanceMeters: 5000,
                        calories: 250
                    )
                ),
                source: .app,
                at: offset
            )
        default:
            return Self.event("o\(index)", .appOpen, source: .app, at: offset)
        }
    }
}
