import FitCircleCore
import FitCircleTesting
import Testing

struct StreakTests {
    /// Spec 000's rule as the shipped profiles state it: one freeze a week covers a first missed day; a
    /// missed day with no freeze, or a second in a row, resets.
    static let daily = StreakPolicy(
        basis: .checkIn,
        period: .day,
        freezes: .init(count: 1, per: .week, automatic: .onMiss),
        resetAfterMissed: 1,
        milestones: [.init(count: 7, badge: "1 Week Warrior"), .init(count: 30, badge: "Monthly Master")]
    )
    static let weekly = StreakPolicy(
        basis: .pushups,
        period: .week,
        freezes: .init(count: 1, per: .month, automatic: .onShortfall),
        resetAfterMissed: 1,
        shortfallKeepsStreak: true
    )
    static let appOpen = StreakPolicy(
        basis: .appOpen,
        period: .day,
        freezes: .init(count: 0, per: .week, automatic: .never),
        resetAfterMissed: 1
    )
    /// A Monday.
    static let monday = LocalDate(iso: "2026-03-02")!

    /// Closes consecutive periods from `start` with these activities.
    static func run(
        _ activities: [Streak.Activity],
        policy: StreakPolicy,
        from start: LocalDate = monday,
        weekStartsOn: Weekday = .monday
    )
        -> (Streak, [Streak.Entry?])
    {
        var streak = Streak()
        var entries: [Streak.Entry?] = []
        var period = Streak.period(of: start, policy: policy, weekStartsOn: weekStartsOn)
        for activity in activities {
            let (next, entry) = streak.close(period, with: activity, policy: policy, weekStartsOn: weekStartsOn)
            streak = next
            entries.append(entry)
            period = Streak.period(after: period, policy: policy)
        }
        return (streak, entries)
    }

    static let checkedIn = Streak.Activity(progress: 1)
    static let nothing = Streak.Activity(progress: 0)

    @Test func aSingleMissedDayIsFrozenAutomaticallyAndAddsNothing() {
        let (streak, entries) = Self.run(
            [Self.checkedIn, Self.checkedIn, Self.checkedIn, Self.checkedIn, Self.nothing, Self.checkedIn],
            policy: Self.daily
        )
        #expect(entries.map { $0?.status } == [.active, .active, .active, .active, .frozen, .active])
        #expect(entries.map { $0?.count } == [1, 2, 3, 4, 4, 5])
        #expect(entries[4]?.reason == "missed: a freeze was applied automatically")
        #expect(streak.freezesUsed == 1)
    }

    @Test func f4_neverMissTwice_aFrozenDayFollowedByAMissResetsAndTheNextCheckInIsAComeback() {
        // Monday to Wednesday, then Thursday is frozen and Friday missed: two days missed in a row, one of
        // them covered by a freeze, reset the streak (spec 000, Feature 4: "missing 2 consecutive days").
        let (streak, entries) = Self.run(
            [Self.checkedIn, Self.checkedIn, Self.checkedIn, Self.nothing, Self.nothing, Self.nothing, Self.checkedIn],
            policy: Self.daily
        )
        #expect(entries.map { $0?.status } == [.active, .active, .active, .frozen, .reset, nil, .active])
        #expect(entries[4]?.count == 0)
        #expect(entries[4]?.reason == "2 days missed in a row: the 3-day streak was reset")
        #expect(entries[6]?.comeback == true)
        #expect(streak.count == 1)
        #expect(streak.longest == 3)
    }

    @Test func f4_twoMissesStraddlingTheWeekBoundaryReset() {
        // Sunday (the last day of the first week) is frozen; Monday (the first of the next) brings a new
        // allowance, but a second miss in a row resets all the same.
        let days = Array(repeating: Self.checkedIn, count: 6) + [Self.nothing, Self.nothing, Self.checkedIn]
        let (streak, entries) = Self.run(days, policy: Self.daily)
        #expect(entries[6]?.status == .frozen)
        #expect(entries[7]?.status == .reset)
        #expect(entries[8]?.comeback == true)
        #expect(streak.count == 1)
    }

    @Test func theFreezeAllowanceComesBackAtTheWeekStart() {
        // Sunday frozen with the first week's freeze, Monday checked in, Tuesday frozen with the second's.
        let days =
            Array(repeating: Self.checkedIn, count: 6) + [Self.nothing, Self.checkedIn, Self.nothing, Self.checkedIn]
        let (streak, entries) = Self.run(days, policy: Self.daily)
        #expect(entries.map { $0?.status }.suffix(4) == [.frozen, .active, .frozen, .active])
        #expect(entries[7]?.milestone?.badge == "1 Week Warrior")
        #expect(streak.count == 8)
    }

    @Test func f4_milestonesAt7_30And100Days() {
        let policy = StreakPolicy(
            basis: .checkIn,
            period: .day,
            freezes: .init(count: 1, per: .week, automatic: .onMiss),
            resetAfterMissed: 1,
            milestones: [
                .init(count: 7, badge: "1 Week Warrior"), .init(count: 30, badge: "Monthly Master"),
                .init(count: 100, badge: "Centurion"),
            ]
        )
        let (streak, entries) = Self.run(Array(repeating: Self.checkedIn, count: 100), policy: policy)
        let reached = entries.enumerated().compactMap { index, entry in entry?.milestone.map { (index + 1, $0.badge) } }
        #expect(reached.map(\.0) == [7, 30, 100])
        #expect(reached.map(\.1) == ["1 Week Warrior", "Monthly Master", "Centurion"])
        #expect(streak.count == 100)
    }

    @Test func f4_aMissedDayWithNoFreezeLeftResetsAtOnce() {
        // The week's freeze covered Tuesday; Thursday's miss has none left and resets the 3-day streak then.
        let (streak, entries) = Self.run(
            [Self.checkedIn, Self.nothing, Self.checkedIn, Self.checkedIn, Self.nothing, Self.checkedIn],
            policy: Self.daily
        )
        #expect(entries.map { $0?.status } == [.active, .frozen, .active, .active, .reset, .active])
        #expect(entries[4]?.reason == "1 day missed in a row: the 3-day streak was reset")
        #expect(entries[5]?.comeback == true)
        #expect(streak.count == 1)
    }

    @Test func aLateCheckInRepairs() {
        let (_, entries) = Self.run([Self.checkedIn, Streak.Activity(progress: 1, late: true)], policy: Self.daily)
        #expect(entries[1]?.status == .repaired)
        #expect(entries[1]?.count == 2)
    }

    @Test func nothingIsRecordedWithoutAStreakToKeep() {
        let (streak, entries) = Self.run([Self.nothing, Self.nothing], policy: Self.daily)
        #expect(entries == [nil, nil])
        #expect(streak.freezesUsed == 0)
    }

    @Test func pushupWeeksResetOnlyWhenEmptyAndAShortWeekSpendsTheMonthlyFreeze() {
        // Weeks of March 2026 starting on Sunday: 1, 8, 15, 22, 29.
        let goal = 250
        let weeks = [
            Streak.Activity(progress: 300, target: goal),  // met: 1
            Streak.Activity(progress: 100, target: goal),  // short: the month's freeze
            Streak.Activity(progress: 50, target: goal),  // short, no freeze left: kept
            Streak.Activity(progress: 0, target: goal, freezeRequested: true),  // empty, no freeze left: reset
            Streak.Activity(progress: 0, target: goal),  // no streak: nothing recorded
            Streak.Activity(progress: 260, target: goal),  // April: met, a comeback
        ]
        let (streak, entries) = Self.run(
            weeks,
            policy: Self.weekly,
            from: LocalDate(iso: "2026-03-01")!,
            weekStartsOn: .sunday
        )
        #expect(entries.map { $0?.status } == [.active, .frozen, .missed, .reset, nil, .active])
        #expect(entries.map { $0?.count } == [1, 1, 1, 0, nil, 1])
        #expect(entries[5]?.comeback == true)
        #expect(streak.allowancePeriod == LocalDate(iso: "2026-04-01"))  // the week of 5 April renews the allowance
    }

    @Test func aRequestedFreezeSavesAnEmptyPushupWeek() {
        let (_, entries) = Self.run(
            [
                Streak.Activity(progress: 300, target: 250),
                Streak.Activity(progress: 0, target: 250, freezeRequested: true),
            ],
            policy: Self.weekly,
            from: LocalDate(iso: "2026-03-01")!,
            weekStartsOn: .sunday
        )
        #expect(entries[1]?.status == .frozen)
        #expect(entries[1]?.reason == "freeze used on request")
    }

    @Test func appOpenStreaksCountConsecutiveDaysAndAGapStartsAgain() {
        let opened = Streak.Activity(progress: 1)
        let (streak, entries) = Self.run([opened, opened, Self.nothing, opened], policy: Self.appOpen)
        #expect(entries.map { $0?.count } == [1, 2, 0, 1])
        #expect(streak.longest == 2)
    }

    /// Random months of activity under each policy.
    static func randomActivities(_ random: inout SeededRandom, weekly: Bool) -> [Streak.Activity] {
        (0..<Int.random(in: 1...80, using: &random)).map { _ in
            let target = weekly ? 250 : 1
            let progress =
                weekly ? [0, 0, 100, 250, 400].randomElement(using: &random)! : Int.random(in: 0...1, using: &random)
            return Streak.Activity(
                progress: progress,
                target: target,
                late: Bool.random(using: &random) && Bool.random(using: &random),
                freezeRequested: Int.random(in: 0..<6, using: &random) == 0
            )
        }
    }

    @Test(arguments: 0..<3)
    func propertiesHoldForRandomHistories(policyIndex: Int) {
        let policy = [Self.daily, Self.weekly, Self.appOpen][policyIndex]
        for seed in 0..<200 as Range<UInt64> {
            var random = SeededRandom(seed: seed)
            let activities = Self.randomActivities(&random, weekly: policy.period == .week)
            let (final, entries) = Self.run(activities, policy: policy, weekStartsOn: .sunday)
            var previous = 0
            var previousStatus: Streak.Entry.Status?
            for (activity, entry) in zip(activities, entries) {
                let count = entry?.count ?? previous
                #expect(count <= previous + 1, "seed \(seed): rose by more than one in a period")
                if entry?.status == .frozen { #expect(count == previous, "seed \(seed): a frozen period added") }
                if !activity.isMet { #expect(count <= previous, "seed \(seed): an unmet period added") }
                if !policy.shortfallKeepsStreak, previousStatus == .frozen, entry != nil, !activity.isMet {
                    #expect(entry?.status == .reset, "seed \(seed): two missed periods in a row did not reset")
                }
                previous = count
                previousStatus = entry?.status
            }
            #expect(final.count <= final.longest)
            #expect(final.count == previous)

            // Closing again after any entry from its saved state (a repair, or the scheduled close after a
            // lazy one) gives the same entries and state.
            if let saved = entries.indices.dropLast().filter({ entries[$0] != nil }).randomElement(using: &random) {
                let start = saved + 1
                var streak = entries[saved]!.state
                var period = Streak.period(after: entries[saved]!.period, policy: policy)
                var replayed: [Streak.Entry?] = []
                for activity in activities[start...] {
                    let (next, entry) = streak.close(period, with: activity, policy: policy, weekStartsOn: .sunday)
                    streak = next
                    replayed.append(entry)
                    period = Streak.period(after: period, policy: policy)
                }
                #expect(Array(entries[start...]) == replayed, "seed \(seed)")
                #expect(streak == final, "seed \(seed)")
            }
        }
    }
}
