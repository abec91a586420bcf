import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation
import OpenAPIRuntime

extension API {
    func createExperiment(_ input: Operations.CreateExperiment.Input) async throws -> Operations.CreateExperiment.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let variants = try body.variants.map { variant in
            Experiments.VariantDraft(
                name: variant.name,
                weight: variant.weight ?? 1,
                overlay: try variant.overlay.map { try JSONTree(json: $0) },
                engagementNotifications: variant.engagementNotifications ?? true,
                control: variant.control ?? false
            )
        }
        let experiment = try await self.engine.experiments.create(
            name: body.name,
            description: body.description ?? "",
            variants: variants,
            rolloutPercent: body.rolloutPercent ?? 100,
            by: try RequestCaller.required()
        )
        return .created(.init(body: .json(try .init(experiment))))
    }

    func listExperiments(_ input: Operations.ListExperiments.Input) async throws -> Operations.ListExperiments.Output {
        let experiments = try await self.engine.experiments.list(by: try RequestCaller.required())
        return .ok(.init(body: .json(.init(experiments: try experiments.map(Components.Schemas.Experiment.init)))))
    }

    func getExperiment(_ input: Operations.GetExperiment.Input) async throws -> Operations.GetExperiment.Output {
        let experiment = try await self.engine.experiments.experiment(
            Experiment.ID(input.path.id),
            by: try RequestCaller.required()
        )
        return .ok(.init(body: .json(try .init(experiment))))
    }

    func changeExperiment(_ input: Operations.ChangeExperiment.Input) async throws -> Operations.ChangeExperiment.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let experiment = try await self.engine.experiments.change(
            Experiment.ID(input.path.id),
            to: body.state.map { (try mapped($0) as Experiment.State) },
            rolloutPercent: body.rolloutPercent,
            by: try RequestCaller.required()
        )
        return .ok(.init(body: .json(try .init(experiment))))
    }

    func getExperimentResults(_ input: Operations.GetExperimentResults.Input) async throws
        -> Operations.GetExperimentResults.Output
    {
        let confidence = input.query.confidence ?? 0.95
        let (experiment, readout, through) = try await self.engine.experiments.results(
            Experiment.ID(input.path.id),
            confidence: confidence,
            by: try RequestCaller.required()
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        experiment: try .init(experiment),
                        through: through.iso,
                        confidence: readout.confidence,
                        test:
                            "Two-sided two-proportion z-test (pooled), each variant against the control; Wilson score intervals. Goal completion and streak saves, several per person: the delta method's variance over people instead.",
                        variants: try readout.variants.map { variant in
                            .init(
                                name: variant.name,
                                control: variant.control,
                                exposed: variant.exposed,
                                measures: try variant.figures.map { figure in
                                    .init(
                                        measure: try mapped(figure.measure),
                                        definition: figure.measure.definition,
                                        successes: figure.proportion.successes,
                                        trials: figure.proportion.trials,
                                        value: figure.proportion.value,
                                        low: figure.interval.lowerBound,
                                        high: figure.interval.upperBound,
                                        comparison: figure.comparison.map { test in
                                            .init(
                                                difference: test.difference,
                                                low: test.interval.lowerBound,
                                                high: test.interval.upperBound,
                                                z: test.z,
                                                pValue: test.pValue,
                                                significant: test.significant
                                            )
                                        },
                                        warning: figure.warning
                                    )
                                }
                            )
                        }
                    )
                )
            )
        )
    }
}

extension Components.Schemas.Experiment {
    init(_ experiment: Experiment) throws {
        self.init(
            id: experiment.id.rawValue,
            name: experiment.name,
            description: experiment.description,
            state: try mapped(experiment.state),
            rolloutPercent: experiment.rolloutPercent,
            variants: try experiment.variants.map { variant in
                .init(
                    name: variant.name,
                    weight: variant.weight,
                    overlay: try variant.overlay.tree.converted(),
                    engagementNotifications: variant.engagementNotifications,
                    control: variant.control
                )
            },
            createdAt: experiment.createdAt,
            startedAt: experiment.startedAt,
            stoppedAt: experiment.stoppedAt
        )
    }
}

extension JSONTree {
    /// A free-form JSON value of a request (a generated payload), as a tree.
    init(json value: some Encodable) throws {
        self = try JSONDecoder().decode(JSONTree.self, from: try JSONEncoder().encode(value))
    }

    /// The tree as a generated free-form payload.
    func converted<Payload: Decodable>() throws -> Payload {
        try JSONDecoder().decode(Payload.self, from: try JSONEncoder().encode(self))
    }
}
