import FitCircleCore
import Testing

/// Where a streak stood on a day, as the 7- and 30-day streak shares read it.
struct StreakStandingTests {
    static let monday = LocalDate(iso: "2026-03-02")!

    /// Daily periods from Monday with the streak after each.
    static func days(_ counts: [Int]) -> [Streak.Closed] {
        counts.enumerated().map { Streak.Closed(period: Self.monday.adding(days: $0.offset), count: $0.element) }
    }

    @Test func aDayThatExtendsTheStreakRaisesItOnThatDay() {
        #expect(Streak.standing(on: Self.monday.adding(days: 6), after: Self.days([1, 2, 3, 4, 5, 6, 7])) == 7)
    }

    @Test func theDayAfterStandsAtTheStreakCarriedIntoItUntilItIsOver() {
        // Day 8 still open (not closed yet), or over without a check-in: the streak stood at 7 all day.
        #expect(Streak.standing(on: Self.monday.adding(days: 7), after: Self.days([1, 2, 3, 4, 5, 6, 7])) == 7)
        #expect(Streak.standing(on: Self.monday.adding(days: 7), after: Self.days([1, 2, 3, 4, 5, 6, 7, 0])) == 7)
        // The day after the break it is gone.
        #expect(Streak.standing(on: Self.monday.adding(days: 8), after: Self.days([1, 2, 3, 4, 5, 6, 7, 0])) == 0)
        #expect(Streak.standing(on: Self.monday.adding(days: 8), after: Self.days([1, 2, 3, 4, 5, 6, 7, 0, 1])) == 1)
    }

    @Test func weeklyPeriodsStandForTheirWholeWeek() {
        let weeks = [0, 7, 14].enumerated().map {
            Streak.Closed(period: Self.monday.adding(days: $0.element), count: [5, 6, 0][$0.offset])
        }
        #expect(Streak.standing(on: Self.monday.adding(days: 10), after: weeks) == 6)  // the second week
        #expect(Streak.standing(on: Self.monday.adding(days: 20), after: weeks) == 6)  // the third, missed once over
        #expect(Streak.standing(on: Self.monday.adding(days: 21), after: weeks) == 0)  // the fourth, still open
        #expect(Streak.standing(on: Self.monday.adding(days: 21), after: Array(weeks.prefix(2))) == 6)
    }

    @Test func noClosedPeriodIsNoStreak() {
        #expect(Streak.standing(on: Self.monday, after: []) == 0)
        #expect(Streak.standing(on: Self.monday, after: Self.days([0])) == 0)
        #expect(Streak.standing(on: Self.monday.adding(days: -1), after: Self.days([3])) == 0)
    }
}
