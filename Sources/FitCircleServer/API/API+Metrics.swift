import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation
import OpenAPIRuntime

extension API {
    func getMetrics(_ input: Operations.GetMetrics.Input) async throws -> Operations.GetMetrics.Output {
        let query = input.query
        let report = try await self.engine.metrics.report(
            from: try localDate(query.from, field: "from"),
            to: try localDate(query.to, field: "to"),
            granularity: Metrics.Granularity(rawValue: (query.granularity ?? .day).rawValue) ?? .day,
            by: try RequestCaller.required()
        )
        if query.format == .csv {
            return .ok(.init(body: .csv(HTTPBody(Metrics.csv(report)))))
        }
        return .ok(.init(body: .json(try .init(report))))
    }
}

extension Components.Schemas.MetricsReport {
    init(_ report: Metrics.Report) throws {
        self.init(
            from: report.from.iso,
            to: report.to.iso,
            granularity: try mapped(report.granularity),
            metrics: try report.series.map { series in
                .init(
                    id: series.metric.id,
                    name: series.metric.name,
                    definition: series.metric.definition,
                    kind: try mapped(series.metric.kind),
                    target: series.metric.target,
                    points: series.points.map { point in
                        .init(
                            period: point.period.iso,
                            value: point.value,
                            numerator: point.numerator,
                            denominator: point.denominator,
                            change: point.change
                        )
                    }
                )
            }
        )
    }
}
