import FitCircleCore
import Foundation
import Testing

/// Assignment, the statistics of the read-out and experiment life, pure (issue 24).
struct ExperimentRulesTests {
    static func experiment(_ weights: [Int], rollout: Int, id: String = "exp-1") -> Experiment {
        Experiment(
            id: Experiment.ID(id),
            name: "test",
            description: "",
            variants: weights.enumerated().map { ExperimentVariant(name: "v\($0.offset)", weight: $0.element) },
            state: .running,
            rolloutPercent: rollout,
            createdAt: Date(timeIntervalSince1970: 0)
        )
    }

    static let users = (0..<20_000).map { User.ID("user-\($0)") }

    /// Widening the rollout takes new people in and moves nobody already in; the weights hold.
    @Test
    func aWiderRolloutKeepsEveryoneWhereTheyWere() {
        var previous: [User.ID: String] = [:]
        for rollout in [25, 50, 100] {
            let experiment = Self.experiment([1, 3], rollout: rollout)
            let assigned = Dictionary(
                uniqueKeysWithValues: Self.users.compactMap { user in
                    ExperimentAssignment.variant(of: user, in: experiment).map { (user, $0.name) }
                }
            )
            for (user, variant) in previous { #expect(assigned[user] == variant) }
            let share = Double(assigned.count) / Double(Self.users.count)
            #expect(abs(share - Double(rollout) / 100) < 0.02, "\(rollout): \(share)")
            let second = Double(assigned.values.filter { $0 == "v1" }.count) / Double(assigned.count)
            #expect(abs(second - 0.75) < 0.02, "weights 1:3 gave \(second)")
            previous = assigned
        }
    }

    /// Two experiments split the same people independently, so one's variants are balanced within the other's.
    @Test
    func experimentsSplitPeopleIndependently() {
        let first = Self.experiment([1, 1], rollout: 100, id: "exp-a")
        let second = Self.experiment([1, 1], rollout: 100, id: "exp-b")
        let inFirst = Self.users.filter { ExperimentAssignment.variant(of: $0, in: first)?.name == "v0" }
        let alsoSecond = inFirst.filter { ExperimentAssignment.variant(of: $0, in: second)?.name == "v0" }
        #expect(abs(Double(alsoSecond.count) / Double(inFirst.count) - 0.5) < 0.03)
    }

    /// Known values: Wilson's interval of 20/100 and the z-test of 200/1000 against 250/1000.
    @Test
    func theStatisticsMatchTheirTextbookValues() {
        let interval = Proportion(20, of: 100).interval(confidence: 0.95)
        #expect(abs(interval.lowerBound - 0.13337) < 1e-4 && abs(interval.upperBound - 0.28883) < 1e-4, "\(interval)")
        let test = TwoProportionTest(Proportion(200, of: 1000), against: Proportion(250, of: 1000), confidence: 0.95)
        #expect(abs(test.z - -2.67740) < 1e-4, "\(test.z)")
        #expect(abs(test.pValue - 0.0074196) < 1e-5, "\(test.pValue)")
        #expect(test.significant)
        #expect(abs(test.difference - -0.05) < 1e-12)
        #expect(test.interval.upperBound < 0)
        let same = TwoProportionTest(Proportion(30, of: 60), against: Proportion(30, of: 60), confidence: 0.95)
        #expect(same.pValue == 1 && !same.significant)
        // Nothing measured is no evidence, and no crash.
        #expect(!TwoProportionTest(Proportion(0, of: 0), against: Proportion(5, of: 10), confidence: 0.95).significant)
        #expect(Proportion(0, of: 0).interval(confidence: 0.95) == 0...1)
    }

    /// Goal-days pooled over people: what one person does on one day says much of the next, so a difference
    /// that counted days as independent would pass for significant is judged by the people who made it.
    @Test
    func sharesPooledOverPeopleAreJudgedByTheirPeople() {
        let oneEach = Proportion(pooling: (0..<30).map { Proportion($0 < 12 ? 1 : 0, of: 1) })
        #expect(oneEach.successes == 12 && oneEach.trials == 30)
        #expect(abs(oneEach.variance - 0.4 * 0.6 / 29) < 1e-12, "one trial each: the sample variance over people")
        let byHand = Proportion(pooling: [Proportion(8, of: 10), Proportion(2, of: 10)])
        #expect(byHand.value == 0.5 && abs(byHand.variance - 18.0 / 200) < 1e-12)
        // Half of 20 people meet every goal, half none, against 20 who each meet 4 in 10.
        let allOrNothing = Proportion(pooling: (0..<20).map { Proportion($0 < 10 ? 10 : 0, of: 10) })
        let steady = Proportion(pooling: Array(repeating: Proportion(4, of: 10), count: 20))
        #expect(abs(allOrNothing.variance - 500.0 / (20 * 19 * 100)) < 1e-12 && steady.variance == 0)
        let byPeople = TwoProportionTest(allOrNothing, against: steady, confidence: 0.95)
        #expect(abs(byPeople.z - 0.1 / (500.0 / 38_000).squareRoot()) < 1e-9 && !byPeople.significant, "\(byPeople)")
        let byDays = TwoProportionTest(Proportion(100, of: 200), against: Proportion(80, of: 200), confidence: 0.95)
        #expect(byDays.significant, "the same counts as independent days would pass")
        #expect(allOrNothing.interval(confidence: 0.95).lowerBound < 0.3)
        // Fewer than 20 people is too few to conclude, however many days they add up to.
        #expect(!Proportion(pooling: (0..<19).map { Proportion($0 % 2 * 30, of: 30) }).isLargeEnough)
        #expect(Proportion(pooling: (0..<20).map { Proportion($0 % 2 * 30, of: 30) }).isLargeEnough)
        #expect(Proportion(pooling: []).trials == 0 && Proportion(pooling: [Proportion(3, of: 4)]).variance == 0)
    }

    /// A sample too small for the z-test is flagged, with the control's too.
    @Test
    func aSmallSampleIsFlagged() {
        let variants = [ExperimentVariant(name: "a", weight: 1), ExperimentVariant(name: "b", weight: 1)]
        let readout = ExperimentReadout(
            variants: variants,
            control: "a",
            exposed: ["a": 12, "b": 400],
            measures: ["a": [.d7Retention: Proportion(4, of: 12)], "b": [.d7Retention: Proportion(150, of: 400)]]
        )
        let b = readout.variants[1].figures.first { $0.measure == .d7Retention }!
        #expect(b.warning != nil)
        #expect(b.comparison != nil)
        #expect(readout.variants[0].figures.first { $0.measure == .d7Retention }!.comparison == nil)
    }

    /// Start, pause, resume, stop; a rollout only widens once started; nothing comes back from stopped.
    @Test
    func anExperimentsLifeFollowsItsRules() throws {
        let now = Date(timeIntervalSince1970: 1_000)
        var experiment = Self.experiment([1, 1], rollout: 25)
        experiment.state = .draft
        experiment = try experiment.changed(to: .running, rolloutPercent: nil, at: now)
        #expect(experiment.startedAt == now)
        experiment = try experiment.changed(to: nil, rolloutPercent: 50, at: now)
        #expect(throws: ValidationError.self) { try experiment.changed(to: nil, rolloutPercent: 25, at: now) }
        experiment = try experiment.changed(to: .paused, rolloutPercent: nil, at: now)
        experiment = try experiment.changed(to: .running, rolloutPercent: 100, at: now)
        #expect(experiment.rolloutPercent == 100 && experiment.startedAt == now)
        experiment = try experiment.changed(to: .stopped, rolloutPercent: nil, at: now.addingTimeInterval(60))
        #expect(throws: DomainError.self) { try experiment.changed(to: .running, rolloutPercent: nil, at: now) }
        #expect(throws: DomainError.self) { try experiment.changed(to: nil, rolloutPercent: 100, at: now) }
    }

    @Test
    func aNewExperimentNamesEachBadField() {
        let variants = [
            ExperimentVariant(name: "A", weight: 0), ExperimentVariant(name: "b", weight: 1, control: true),
            ExperimentVariant(name: "b", weight: 1, control: true),
        ]
        do {
            try Experiment.validate(name: "Bad Name", description: "", variants: variants, rolloutPercent: 0)
            Issue.record("accepted")
        } catch let error as ValidationError {
            let fields = Set(error.violations.map(\.field))
            #expect(
                fields == [
                    "name", "variants[0].name", "variants[0].weight", "variants[2].name", "variants", "rolloutPercent",
                ],
                "\(fields)"
            )
        } catch {
            Issue.record("\(error)")
        }
    }
}
