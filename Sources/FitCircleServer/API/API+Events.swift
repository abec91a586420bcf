import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension API {
    func recordEvents(_ input: Operations.RecordEvents.Input) async throws -> Operations.RecordEvents.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let batch = body.events.map { event in
            EventInput(
                clientEventID: event.clientEventId,
                name: event.name,
                occurredAt: event.occurredAt,
                properties: (event.properties?.additionalProperties ?? [:]).mapValues(EventValue.init)
            )
        }
        let recorded = try await self.engine.events.record(batch, for: try RequestCaller.required().userID)
        return .ok(.init(body: .json(.init(accepted: recorded.accepted, duplicates: recorded.duplicates))))
    }
}

extension EventValue {
    init(_ value: Components.Schemas.EventPropertyValue) {
        switch value {
        case .case1(let text): self = .string(text)
        case .case2(let whole): self = .integer(Int(whole))
        case .case3(let number): self = .number(number)
        case .case4(let flag): self = .boolean(flag)
        }
    }
}
