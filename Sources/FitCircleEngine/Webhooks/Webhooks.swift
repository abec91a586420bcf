public import FitCircleCore
public import FitCircleDelivery
public import FitCircleJobs
public import FitCircleStore
public import Foundation

/// Outbound webhooks (issue 24), for operators: app backends register endpoints for the server's domain
/// events (`WebhookFanout` queues them as they are recorded), read each endpoint's delivery log and replay
/// a delivery. A delivery is a job: sent signed (`WebhookSender`), retried with the runner's backoff while
/// the endpoint may take it later (no answer, 408, 429, 5xx), failed for good on any other answer or after
/// its last try — then it waits in the log for a replay.
public struct Webhooks: JobOwner {
    let store: Store
    let fanout: WebhookFanout
    let sender: WebhookSender
    let ids: IDGenerator
    let clock: WallClock

    public func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        try jobs.register(WebhookFanout.deliver) { job in try await self.deliver(job) }
    }

    /// Registers an endpoint; the answer holds its signing secret, which is never shown again.
    public func register(url: String, events: [String], description: String, by caller: Caller) async throws
        -> WebhookEndpoint
    {
        try WebhookEndpoint.validate(
            url: url,
            events: events,
            description: description,
            allowPrivateTargets: self.sender.allowsPrivateTargets
        )
        let endpoint = WebhookEndpoint(
            id: self.ids.make(),
            url: url,
            events: events,
            description: description,
            secret: "whsec_" + Secrets.random(bytes: 32),
            createdAt: self.clock.now()
        )
        try await self.store.transaction { tx in
            try await Operators.require(caller, in: tx, to: "register webhooks", scope: .webhooks)
            guard try await tx.webhooks.endpoints().count < WebhookEndpoint.maximumEndpoints else {
                throw DomainError.refused(
                    Refusal(
                        .limitReached,
                        "This server already has \(WebhookEndpoint.maximumEndpoints) webhook endpoints.",
                        facts: ["limit": .number(WebhookEndpoint.maximumEndpoints)]
                    )
                )
            }
            try await tx.webhooks.insert(endpoint)
        }
        self.fanout.subscriptions.forget()
        return endpoint
    }

    /// Every endpoint (their secrets are not part of what a list shows).
    public func endpoints(by caller: Caller) async throws -> [WebhookEndpoint] {
        try await self.store.read { tx in
            try await Operators.require(caller, in: tx, to: "read webhooks", scope: .webhooks)
            return try await tx.webhooks.endpoints()
        }
    }

    /// Removes an endpoint with its log; what was waiting for it is not sent.
    public func remove(_ id: WebhookEndpoint.ID, by caller: Caller) async throws {
        try await self.store.transaction { tx in
            try await Operators.require(caller, in: tx, to: "remove webhooks", scope: .webhooks)
            guard id.isWellFormed, try await tx.webhooks.delete(id) else {
                throw DomainError.notFound(resource: "webhook", id: id.rawValue)
            }
        }
        self.fanout.subscriptions.forget()
    }

    /// The endpoint's delivery log, newest first.
    /// A page of the endpoint's delivery log, newest first (`after`: the last of the page before; `next` is this
    /// page's last when there may be more).
    public func deliveries(
        of id: WebhookEndpoint.ID,
        status: WebhookDelivery.Status?,
        after last: WebhookDelivery.ID?,
        limit: Int,
        by caller: Caller
    ) async throws -> (items: [WebhookDelivery], next: WebhookDelivery.ID?) {
        guard (1...500).contains(limit) else { throw ValidationError(field: "limit", reason: "must be from 1 to 500") }
        let items = try await self.store.read { tx in
            try await Operators.require(caller, in: tx, to: "read webhooks", scope: .webhooks)
            guard id.isWellFormed, try await tx.webhooks.endpoint(id) != nil else {
                throw DomainError.notFound(resource: "webhook", id: id.rawValue)
            }
            return try await tx.webhooks.deliveries(of: id, status: status, after: last, limit: limit)
        }
        return (items, items.count == limit ? items.last?.id : nil)
    }

    /// Sends a delivery again, as it was (same id and body: a receiver that had it drops the repeat).
    public func replay(_ delivery: WebhookDelivery.ID, of endpoint: WebhookEndpoint.ID, by caller: Caller) async throws
        -> WebhookDelivery
    {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            try await Operators.require(caller, in: tx, to: "replay webhooks", scope: .webhooks)
            guard delivery.isWellFormed, let found = try await tx.webhooks.delivery(delivery),
                found.endpoint == endpoint
            else {
                throw DomainError.notFound(resource: "webhook delivery", id: delivery.rawValue)
            }
            guard found.status != .pending else {
                throw DomainError.refused(Refusal(.wrongState, "This delivery is still being sent."))
            }
            _ = try await tx.webhooks.requeue(delivery)
            try await tx.enqueue(
                [
                    try WebhookFanout.job(
                        for: delivery,
                        at: now,
                        dedupeKey: "webhook:\(delivery.rawValue):replay:\(found.attempts)"
                    )
                ],
                at: now
            )
            var replayed = found
            replayed.status = .pending
            replayed.deliveredAt = nil
            return replayed
        }
    }

    private func deliver(_ job: JobRecord) async throws {
        let reference = try JSONDecoder().decode(WebhookFanout.Reference.self, from: Data(job.payload.utf8))
        let id = WebhookDelivery.ID(reference.delivery)
        let found = try await self.store.read { tx -> (WebhookDelivery, WebhookEndpoint)? in
            guard let delivery = try await tx.webhooks.delivery(id),
                let endpoint = try await tx.webhooks.endpoint(delivery.endpoint)
            else { return nil }
            return (delivery, endpoint)
        }
        // Gone with its endpoint or its user, or settled by an earlier run: nothing to send.
        guard let (delivery, endpoint) = found, delivery.status == .pending else { return }
        let attempt = await self.sender.send(
            Data(delivery.payload.utf8),
            to: endpoint.url,
            secret: Data(endpoint.secret.utf8),
            headers: [("FitCircle-Event", delivery.event), ("FitCircle-Delivery", delivery.id.rawValue)]
        )
        let status: WebhookDelivery.Status
        var retry: RetryLater?
        switch attempt.outcome {
        case .delivered: status = .delivered
        case .retryable(let reason, let after) where job.attempts < job.maxAttempts:
            status = .pending
            retry = RetryLater(reason: reason, after: after)
        default: status = .failed
        }
        try await self.store.transaction { tx in
            try await tx.webhooks.record(
                id,
                status: status,
                httpStatus: attempt.status,
                error: attempt.outcome.reason,
                at: self.clock.now()
            )
        }
        if let retry { throw retry }
    }

}
