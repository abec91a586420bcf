import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation
import OpenAPIRuntime

extension API {
    func registerWebhook(_ input: Operations.RegisterWebhook.Input) async throws -> Operations.RegisterWebhook.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let endpoint = try await self.engine.webhooks.register(
            url: body.url,
            events: body.events.map(\.rawValue),
            description: body.description ?? "",
            by: try RequestCaller.required()
        )
        return .created(.init(body: .json(.init(endpoint, showingSecret: true))))
    }

    func listWebhooks(_ input: Operations.ListWebhooks.Input) async throws -> Operations.ListWebhooks.Output {
        let endpoints = try await self.engine.webhooks.endpoints(by: try RequestCaller.required())
        return .ok(.init(body: .json(.init(webhooks: endpoints.map { .init($0, showingSecret: false) }))))
    }

    func deleteWebhook(_ input: Operations.DeleteWebhook.Input) async throws -> Operations.DeleteWebhook.Output {
        try await self.engine.webhooks.remove(WebhookEndpoint.ID(input.path.id), by: try RequestCaller.required())
        return .noContent(.init())
    }

    func listWebhookDeliveries(_ input: Operations.ListWebhookDeliveries.Input) async throws
        -> Operations.ListWebhookDeliveries.Output
    {
        let (deliveries, next) = try await self.engine.webhooks.deliveries(
            of: WebhookEndpoint.ID(input.path.id),
            status: input.query.status.map { (try mapped($0) as WebhookDelivery.Status) },
            after: try input.query.cursor.map { WebhookDelivery.ID(try PageCursor.id($0, of: .webhookDeliveries)) },
            limit: input.query.limit ?? 50,
            by: try RequestCaller.required()
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try deliveries.map(Components.Schemas.WebhookDelivery.init),
                        nextCursor: next.map { PageCursor.encode(.webhookDeliveries, $0.rawValue) }
                    )
                )
            )
        )
    }

    func replayWebhookDelivery(_ input: Operations.ReplayWebhookDelivery.Input) async throws
        -> Operations.ReplayWebhookDelivery.Output
    {
        let delivery = try await self.engine.webhooks.replay(
            WebhookDelivery.ID(input.path.deliveryId),
            of: WebhookEndpoint.ID(input.path.id),
            by: try RequestCaller.required()
        )
        return .accepted(.init(body: .json(try .init(delivery))))
    }
}

extension Components.Schemas.WebhookEndpoint {
    init(_ endpoint: WebhookEndpoint, showingSecret: Bool) {
        self.init(
            id: endpoint.id.rawValue,
            url: endpoint.url,
            events: endpoint.events,
            description: endpoint.description,
            createdAt: endpoint.createdAt,
            secret: showingSecret ? endpoint.secret : nil
        )
    }
}

extension Components.Schemas.WebhookDelivery {
    init(_ delivery: WebhookDelivery) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        self.init(
            id: delivery.id.rawValue,
            event: delivery.event,
            userId: delivery.user.rawValue,
            status: try mapped(delivery.status),
            attempts: delivery.attempts,
            lastStatus: delivery.lastStatus,
            lastError: delivery.lastError,
            createdAt: delivery.createdAt,
            deliveredAt: delivery.deliveredAt,
            payload: try decoder.decode(Components.Schemas.WebhookPayload.self, from: Data(delivery.payload.utf8))
        )
    }
}
