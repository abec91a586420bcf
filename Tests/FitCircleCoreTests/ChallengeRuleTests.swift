import FitCircleCore
import Foundation
import Testing

/// The one scoring function of challenges on shapes the spec gives in words.
struct ChallengeRuleTests {
    static let start = Date(timeIntervalSince1970: 1_780_272_000)  // Monday 1 June 2026, 00:00 UTC
    static let summerShred = ChallengeRule(
        metric: .calories,
        aggregation: .weeksMet,
        goal: .everyoneTo,
        target: 4,
        weeklyTarget: 2_000
    )

    static func workout(day: Int, kcal: Double) -> ChallengeEntry {
        let at = Self.start.addingTimeInterval(Double(day) * 86_400 + 12 * 3600)
        let facts = Workout(type: .running, durationSeconds: 3600, calories: kcal)
        return .workout(facts, startedAt: at, in: .gmt, key: "d\(day)-\(kcal)")
    }

    /// Spec 002 §1, "Summer Shred — 2,000 calories/week for 4 weeks": each week of the span must reach
    /// 2,000 kcal; one week of 8,400 is one week, not four.
    @Test func summerShredCountsTheWeeksThatReachedTwoThousandNotTheTotal() throws {
        let steady = (0..<4).flatMap { week in (0..<5).map { Self.workout(day: week * 7 + $0, kcal: 420) } }
        let steadyScore = try #require(Self.summerShred.score(steady, since: Self.start))
        #expect(steadyScore.value == 4)
        #expect(Self.summerShred.reachesTarget(steadyScore.value))
        // the fourth week's fifth
        #expect(steadyScore.reachedAt == Self.start.addingTimeInterval(Double(3 * 7 + 4) * 86_400 + 13 * 3600))

        let oneBigWeek = (0..<5).map { Self.workout(day: $0, kcal: 1_680) }
        let bigScore = try #require(Self.summerShred.score(oneBigWeek, since: Self.start))
        #expect(bigScore.value == 1)
        #expect(!Self.summerShred.reachesTarget(bigScore.value))

        // 1,999 kcal in a week is not a week; nothing reached is no score.
        #expect(
            Self.summerShred.score(
                [Self.workout(day: 0, kcal: 1_000), Self.workout(day: 6, kcal: 999)],
                since: Self.start
            ) == nil
        )
        #expect(Self.summerShred.unit == "weeks")
    }
}
