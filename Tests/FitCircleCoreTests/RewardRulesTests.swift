import FitCircleCore
import Testing

/// The pure rules of points, caps, levels and badges (spec 001, POINTS-01…03 and ANTCHEAT-01…02; spec 002).
struct RewardRulesTests {
    static let formula = RewardPolicy.SeriesPoints(base: 10, perRep: 0.3, perSeries: 0.8)
    static let cap = RewardPolicy.PushupCap(tiers: [
        .init(fromLevel: 1, goalFactor: 1.5), .init(fromLevel: 6, goalFactor: 2), .init(fromLevel: 11, goalFactor: 2.5),
    ])

    @Test(arguments: [(5, 5, 1.5, 4.0, 55), (10, 10, 3.0, 8.0, 110)] as [(Int, Int, Double, Double, Int)])
    func theWorkedExamplesOfSpec001(
        series: Int,
        reps: Int,
        repMultiplier: Double,
        seriesMultiplier: Double,
        points: Int
    ) {
        let award = Points.series(
            number: series,
            reps: reps,
            countedBefore: 0,
            cap: nil,
            streakMultiplier: 1,
            policy: Self.formula
        )
        #expect(award.repMultiplier == repMultiplier)
        #expect(award.seriesMultiplier == seriesMultiplier)
        #expect(award.points == points)
        #expect(award.counted == reps && award.excess == 0)
    }

    @Test func theStreakMultiplierGrowsPerPeriodUpToItsCeiling() {
        let rule = RewardPolicy.StreakMultiplier(step: 0.1, maximum: 2.0)
        #expect(rule.value(streak: 0) == 1.0)
        #expect(abs(rule.value(streak: 3) - 1.3) < 1e-9)
        #expect(rule.value(streak: 10) == 2.0)
        #expect(rule.value(streak: 40) == 2.0)
        let award = Points.series(
            number: 5,
            reps: 5,
            countedBefore: 0,
            cap: nil,
            streakMultiplier: rule.value(streak: 3),
            policy: Self.formula
        )
        #expect(award.points == 72)  // 10 × 5.5 × 1.3 = 71.5, rounded half up
        #expect(award.streakMultiplier == 1.3)
    }

    @Test(arguments: [(1, 75), (5, 75), (6, 100), (10, 100), (11, 125), (40, 125)] as [(Int, Int)])
    func theCapFollowsTheLevelTiers(level: Int, cap: Int) {
        #expect(Self.cap.cap(dailyGoal: 50, level: level) == cap)
    }

    @Test func onlyTheResidueUnderTheCapCountsAndEarns() {
        let crossing = Points.series(
            number: 2,
            reps: 30,
            countedBefore: 60,
            cap: 75,
            streakMultiplier: 1,
            policy: Self.formula
        )
        #expect(crossing.counted == 15 && crossing.excess == 15 && crossing.capReached)
        #expect(crossing.points == 61)  // 10 × (15 × 0.3 + 2 × 0.8)
        let over = Points.series(
            number: 3,
            reps: 10,
            countedBefore: 75,
            cap: 75,
            streakMultiplier: 1,
            policy: Self.formula
        )
        #expect(over.counted == 0 && over.excess == 10 && over.points == 0)
    }

    @Test func levelsFollowTheCurve() {
        let curve = LevelCurve(base: 50, exponent: 2)
        #expect(curve.level(for: 0) == 1)
        #expect(curve.level(for: 49) == 1)
        #expect(curve.level(for: 50) == 2)
        #expect(curve.level(for: 1249) == 5)
        #expect(curve.level(for: 1250) == 6)
        #expect(curve.level(for: 5000) == 11)
        #expect(
            curve.standing(for: 60)
                == LevelCurve.Standing(level: 2, levelStartsAt: 50, nextLevelAt: 200, pointsToNextLevel: 140)
        )
    }

    @Test func workoutXPComesFromTypeDurationAndCaloriesWithinTheDailyMaximum() {
        let rule = RewardPolicy.WorkoutPoints(
            perMinute: ["running": 4, "other": 2],
            perCalorie: 0.1,
            dailyMaximum: 1500
        )
        #expect(
            Points.workout(Workout(type: .running, durationSeconds: 1800, calories: 300), earnedToday: 0, policy: rule)
                == 150
        )
        #expect(Points.workout(Workout(type: .cycling, durationSeconds: 600), earnedToday: 0, policy: rule) == 20)
        #expect(
            Points.workout(
                Workout(type: .running, durationSeconds: 1800, calories: 300),
                earnedToday: 1400,
                policy: rule
            ) == 100
        )
    }

    @Test func badgeProgressIsTheMeanShareOfItsConditions() {
        let single = Badge(
            id: "b",
            name: "B",
            description: "",
            icon: "",
            category: .participation,
            rarity: .common,
            requirement: .init(all: [.init(counter: .series, atLeast: 100)]),
            xp: 0
        )
        #expect(single.progress([.series: 25]) == 0.25)
        #expect(!single.isMet(by: [.series: 99]) && single.isMet(by: [.series: 100]))
        let several = Badge(
            id: "v",
            name: "V",
            description: "",
            icon: "",
            category: .specialty,
            rarity: .epic,
            requirement: .init(all: [.init(counter: .distanceWins, atLeast: 1), .init(counter: .xpWins, atLeast: 1)]),
            xp: 0
        )
        #expect(several.progress([.distanceWins: 3]) == 0.5)
        #expect(!several.isMet(by: [.distanceWins: 3]))
    }
}
