import FitCircleCore
import FitCircleStore
import Testing

@testable import FitCircleEngine

/// How a report adds the rollup's days up into periods (`Metrics.series`), and what a day's facts roll up to.
struct MetricsReportTests {
    static let monday = LocalDate(iso: "2026-03-02")!

    static func row(_ offset: Int, _ metric: String, _ numerator: Double, _ denominator: Double) -> MetricRow {
        MetricRow(day: Self.monday.adding(days: offset), metric: metric, numerator: numerator, denominator: denominator)
    }

    @Test
    func aWeekAddsSharesUpAveragesDailyCountsAndShowsTheLastWindow() {
        var rows: [MetricRow] = []
        for offset in 0..<14 {
            rows.append(Self.row(offset, "checkin_completion", Double(offset), 10))  // 0…13 of 10 each day
            rows.append(Self.row(offset, "dau", Double(10 + offset), 100))
            rows.append(Self.row(offset, "wau", Double(20 + offset), 100))
        }
        let series = Metrics.series(
            of: rows,
            from: Self.monday,
            to: Self.monday.adding(days: 13),
            granularity: .week,
            weekStart: .monday
        )
        func points(_ id: String) -> [Metrics.Point] { series.first { $0.metric.id == id }!.points }
        #expect(points("checkin_completion").map(\.period) == [Self.monday, Self.monday.adding(days: 7)])
        #expect(points("checkin_completion").map(\.numerator) == [21, 70])
        #expect(points("checkin_completion").map(\.value) == [21.0 / 70, 70.0 / 70])
        #expect(points("checkin_completion")[1].change == (1.0 - 0.3) / 0.3)
        #expect(points("dau").map(\.value) == [13, 20])  // the average day
        #expect(points("wau").map(\.value) == [26, 33])  // the week's last day
        // A metric with no rows has its periods, valueless.
        #expect(points("template_share").map(\.value) == [nil, nil])
        let csv = Metrics.csv(
            Metrics.Report(from: Self.monday, to: Self.monday.adding(days: 13), granularity: .week, series: series)
        )
        #expect(csv.hasPrefix("period,metric,value,numerator,denominator,change\r\n"))
        #expect(csv.contains("2026-03-09,checkin_completion,1.0,70.0,70.0,"))
    }

    @Test
    func aDaysFactsRollUpEachCohortOnItsOwnDay() {
        let (ana, ben, cy) = (User.ID("ana"), User.ID("ben"), User.ID("cy"))
        var facts = DayFacts(day: Self.monday.adding(days: 7))
        facts.users = 3
        facts.active = 2
        facts.cohorts = [1: .init(size: 1, active: 0), 7: .init(size: 2, active: 1), 30: .init(size: 0, active: 0)]
        facts.customised = 1
        facts.checkIns = (users: 1, withSentiment: 1)
        facts.streaks = [ana: 7, ben: 30, cy: 6]
        let rows = Dictionary(
            uniqueKeysWithValues: facts.rows.map { ("\($0.metric) \($0.day.iso)", [$0.numerator, $0.denominator]) }
        )
        #expect(rows["d7_retention 2026-03-02"] == [1, 2])
        #expect(rows["d1_retention 2026-03-08"] == [0, 1])
        #expect(rows["preference_customisation 2026-03-02"] == [1, 2])
        #expect(rows["opt_out 2026-02-07"] == [0, 0])
        #expect(rows["checkin_completion 2026-03-09"] == [1, 2])
        #expect(rows["checkin_sentiment 2026-03-09"] == [1, 1])
        #expect(rows["streak_7_share 2026-03-09"] == [2, 2])
        #expect(rows["streak_30_share 2026-03-09"] == [1, 2])
        #expect(rows["weekly_goal_completion 2026-03-09"] == nil)  // not the end of a week
    }

    /// The rollup counts check-ins, submissions and opens among the day's active users without
    /// intersecting them: that holds only while each of them is activity.
    @Test
    func whatTheRollupCountsAmongTheActiveIsActivity() {
        #expect(
            MetricCatalog.activeServerEvents.isSuperset(of: [.checkInCompleted, .dataSubmitted, .notificationOpened])
        )
    }
}
