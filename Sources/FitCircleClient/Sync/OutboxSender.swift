import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Turns outbox items into the API's calls.
struct OutboxSender: Sendable {
    let client: Client
    /// The migration session that batches are counted in, if any.
    var migrationID: String? = nil

    struct BatchResults {
        var accepted: [String] = []
        var rejected: [(String, FitCircleProblem)] = []
    }

    func sendActivities(_ items: [OutboxItem]) async throws -> BatchResults {
        var results = BatchResults()
        var events: [Components.Schemas.ActivityInput] = []
        var sent: [OutboxItem] = []
        for item in items {
            // An item this SDK wrote cannot fail to decode; one that does is refused here, not resent forever.
            guard let event = try? OutboxCoding.decoder.decode(Components.Schemas.ActivityInput.self, from: item.body)
            else {
                results.rejected.append((item.id, .unreadable))
                continue
            }
            events.append(event)
            sent.append(item)
        }
        guard !events.isEmpty else { return results }
        let answer = try await ClientCall.run {
            try await self.client.recordActivityBatch(body: .json(.init(events: events, migrationId: self.migrationID)))
                .ok.body.json
        }
        for result in answer.results where sent.indices.contains(result.index) {
            let id = sent[result.index].id
            switch result.status {
            case .created, .replayed: results.accepted.append(id)
            case .rejected: results.rejected.append((id, result.problem.map(FitCircleProblem.init) ?? .unreadable))
            }
        }
        return results
    }

    func send(_ item: OutboxItem) async throws {
        try await ClientCall.run {
            switch item.kind {
            case .activity:
                _ = try await self.client.recordActivity(
                    headers: .init(idempotencyKey: item.id),
                    body: .json(self.decode(item))
                )
                .created
            case .dailyTotals:
                _ = try await self.client.syncDailyTotals(
                    headers: .init(idempotencyKey: item.id),
                    body: .json(self.decode(item))
                ).ok
            case .checkIn:
                _ = try await self.client.checkIn(
                    headers: .init(idempotencyKey: item.id),
                    body: .json(self.decode(item))
                ).created
            case .submission:
                let day: Day = try self.decode(item)
                _ = try await self.client.submitToAllFitCircles(
                    query: .init(date: day.date),
                    headers: .init(idempotencyKey: item.id)
                ).ok
            case .reaction:
                guard let activity = item.target.first else { throw FitCircleProblem.unreadable }
                _ = try await self.client.addReaction(path: .init(id: activity), body: .json(self.decode(item))).ok
            case .edit:
                _ = try await self.client.editActivity(body: .json(self.decode(item))).ok
            case .reactionRemoval:
                guard item.target.count == 2 else { throw FitCircleProblem.unreadable }
                _ = try await self.client.removeReaction(path: .init(id: item.target[0], reaction: item.target[1]))
                    .noContent
            }
        }
    }

    struct Day: Codable {
        var date: String?
    }

    private func decode<Body: Decodable>(_ item: OutboxItem) throws -> Body {
        do {
            return try OutboxCoding.decoder.decode(Body.self, from: item.body)
        } catch {
            throw FitCircleProblem.unreadable
        }
    }
}

extension FitCircleProblem {
    /// An outbox item whose stored body is not what its kind sends.
    static let unreadable = FitCircleProblem(
        type: "/problems/unreadable-outbox-item",
        title: "Unreadable outbox item",
        status: 422,
        detail: "The item's stored body is not a request this SDK can send."
    )

    init(_ problem: Components.Schemas.Problem) {
        self.init(
            type: problem._type,
            title: problem.title,
            status: problem.status,
            detail: problem.detail,
            fieldErrors: (problem.errors ?? []).map { FieldError(field: $0.field, reason: $0.reason) }
        )
    }
}

/// Calls through the generated client with the SDK's errors: a problem, a session that ended, or a server
/// that could not be reached, rather than the generator's `ClientError`.
enum ClientCall {
    static func run<Result>(_ call: () async throws -> Result) async throws -> Result {
        do {
            return try await call()
        } catch let error as ClientError {
            switch error.underlyingError {
            case let problem as FitCircleProblem: throw problem
            case let error as FitCircleError: throw error
            default:
                // With a response, it was not the answer the document describes; without, none came back.
                if let response = error.response {
                    throw FitCircleError.unexpectedResponse(status: response.status.code)
                }
                throw FitCircleError.unreachable(underlying: "\(error.underlyingError)")
            }
        }
    }
}
