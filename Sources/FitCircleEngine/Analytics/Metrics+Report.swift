public import FitCircleCore
public import FitCircleStore
import Foundation

extension Metrics {
    public enum Granularity: String, Sendable, CaseIterable {
        case day, week, month
    }

    /// A metric's value over one period (a day, a week from the profile's first weekday, a month).
    public struct Point: Equatable, Sendable {
        public var period: LocalDate
        /// nil when the period counted nothing.
        public var value: Double?
        public var numerator: Double
        public var denominator: Double
        /// The value's change since the period before, as a fraction of it (+0.25: a quarter more).
        public var change: Double?
    }

    public struct Series: Equatable, Sendable {
        public var metric: Metric
        public var points: [Point]
    }

    public struct Report: Equatable, Sendable {
        public var from: LocalDate
        public var to: LocalDate
        public var granularity: Granularity
        public var series: [Series]
    }

    public static let longestRange = 366

    /// The figures from `from` to `to` (by default the 30 days up to yesterday, UTC), operators only.
    public func report(from: LocalDate?, to: LocalDate?, granularity: Granularity, by caller: Caller) async throws
        -> Report
    {
        let last = to ?? LocalDate(self.clock.now(), in: .gmt).adding(days: -1)
        let first = from ?? last.adding(days: -29)
        var validator = Validator()
        validator.check(first <= last, "from", "must not be after to")
        validator.check(
            last.ordinal - first.ordinal < Self.longestRange,
            "to",
            "must be at most \(Self.longestRange) days after from"
        )
        try validator.throwIfInvalid()
        let rows = try await self.store.read { tx in
            try await Operators.require(caller, in: tx, to: "read the metrics", scope: .metrics)
            return try await tx.metrics.rows(from: first, to: last)
        }
        return Report(
            from: first,
            to: last,
            granularity: granularity,
            series: Self.series(
                of: rows,
                from: first,
                to: last,
                granularity: granularity,
                weekStart: self.profile.week.startsOn
            )
        )
    }

    /// Adds the rows up period by period (pure: the report's arithmetic, tested on its own).
    static func series(
        of rows: [MetricRow],
        from first: LocalDate,
        to last: LocalDate,
        granularity: Granularity,
        weekStart: Weekday
    ) -> [Series] {
        func period(of day: LocalDate) -> LocalDate {
            switch granularity {
            case .day: day
            case .week: day.startOfWeek(startingOn: weekStart)
            case .month: day.startOfMonth
            }
        }
        var periods: [LocalDate] = []
        var day = first
        while day <= last {
            if periods.last != period(of: day) { periods.append(period(of: day)) }
            day = day.adding(days: 1)
        }
        let byMetric = Dictionary(grouping: rows, by: \.metric)
        return MetricCatalog.all.map { metric in
            let byPeriod = Dictionary(grouping: byMetric[metric.id] ?? [], by: { period(of: $0.day) })
            var points: [Point] = []
            for start in periods {
                let inPeriod = (byPeriod[start] ?? []).sorted { $0.day < $1.day }
                var (numerator, denominator) = (
                    inPeriod.reduce(0) { $0 + $1.numerator }, inPeriod.reduce(0) { $0 + $1.denominator }
                )
                if metric.kind == .windowCount || metric.kind == .windowShare, let latest = inPeriod.last {
                    (numerator, denominator) = (latest.numerator, latest.denominator)
                }
                let value =
                    inPeriod.isEmpty
                    ? nil : metric.value(numerator: numerator, denominator: denominator, days: inPeriod.count)
                let before = points.last?.value
                let change = value.flatMap { now in before.flatMap { $0 == 0 ? nil : (now - $0) / $0 } }
                points.append(
                    Point(period: start, value: value, numerator: numerator, denominator: denominator, change: change)
                )
            }
            return Series(metric: metric, points: points)
        }
    }

    /// The report as CSV: one line per metric and period.
    public static func csv(_ report: Report) -> String {
        var lines = ["period,metric,value,numerator,denominator,change"]
        for series in report.series {
            for point in series.points {
                let value = point.value.map { String($0) } ?? ""
                let change = point.change.map { String($0) } ?? ""
                lines.append(
                    "\(point.period.iso),\(series.metric.id),\(value),\(point.numerator),\(point.denominator),\(change)"
                )
            }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
