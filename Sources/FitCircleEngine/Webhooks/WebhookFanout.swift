public import FitCircleCore
public import FitCircleJobs
public import FitCircleStore
public import Foundation

/// Turns the server's events into webhook deliveries, inside the transaction that records them: each new
/// event (a repeat records nothing, so sends nothing) goes to every endpoint subscribed to its name, as a
/// row of the delivery log and a job that sends it. The subscriptions are a `LiveSnapshot`, so an event
/// nobody subscribes to costs no query.
public struct WebhookFanout: Sendable {
    static let deliver = "webhook.deliver"
    /// Tries over about a day and a half with the runner's backoff, then the delivery is failed (replayable).
    static let maximumAttempts = 12

    let ids: IDGenerator
    let subscriptions = LiveSnapshot<[WebhookEndpoint]>()

    public init(ids: IDGenerator) {
        self.ids = ids
    }

    /// The job payload: which delivery.
    struct Reference: Codable {
        var delivery: String
    }

    func fanOut(_ events: [AnalyticsEvent], stored: Set<EventKey>, in tx: Transaction, at now: Date) async throws {
        let server = events.filter { $0.source == .server && stored.contains(EventKey(user: $0.userID, key: $0.key)) }
        guard !server.isEmpty else { return }
        let endpoints = try await self.endpoints(in: tx)
        guard !endpoints.isEmpty else { return }
        var deliveries: [(delivery: WebhookDelivery, key: String)] = []
        for event in server {
            for endpoint in endpoints where endpoint.events.contains(event.name) {
                let id: WebhookDelivery.ID = self.ids.make()
                let payload = try Self.encoder.encode(WebhookPayload(id: id.rawValue, event: event))
                deliveries.append(
                    (
                        WebhookDelivery(
                            id: id,
                            endpoint: endpoint.id,
                            event: event.name,
                            user: event.userID,
                            payload: String(decoding: payload, as: UTF8.self),
                            createdAt: now
                        ),
                        event.key
                    )
                )
            }
        }
        let queued = try await tx.webhooks.queue(deliveries)
        try await tx.enqueue(
            try queued.map { try Self.job(for: $0, at: now, dedupeKey: "webhook:\($0.rawValue)") },
            at: now
        )
    }

    static func job(for delivery: WebhookDelivery.ID, at now: Date, dedupeKey: String) throws -> JobRecord {
        JobRecord(
            id: UUID().uuidString.lowercased(),
            kind: Self.deliver,
            payload: String(decoding: try JSONEncoder().encode(Reference(delivery: delivery.rawValue)), as: UTF8.self),
            dedupeKey: dedupeKey,
            runAt: now,
            maxAttempts: Self.maximumAttempts
        )
    }

    private func endpoints(in tx: Transaction) async throws -> [WebhookEndpoint] {
        if let current = self.subscriptions.current() { return current }
        let endpoints = try await tx.webhooks.endpoints()
        self.subscriptions.keep(endpoints)
        return endpoints
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()
}
