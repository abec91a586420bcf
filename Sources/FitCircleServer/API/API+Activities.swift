import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation

extension API {
    func recordActivity(_ input: Operations.RecordActivity.Input) async throws -> Operations.RecordActivity.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let outcome = try await self.engine.activities.record(
            try ActivityInput(body),
            for: try RequestCaller.required().userID
        )
        switch outcome {
        case .created(let event, let reward): return .created(.init(body: .json(try .init(event, reward: reward))))
        case .replayed(let event): return .ok(.init(body: .json(try .init(event))))
        case .rejected: throw DomainError.conflict(reason: "The activity was refused.")
        }
    }

    func editActivity(_ input: Operations.EditActivity.Input) async throws -> Operations.EditActivity.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let outcome = try await self.engine.activities.edit(
            try ActivityInput(body.activity, field: "activity."),
            modifiedAt: body.modifiedAt,
            of: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(.init(applied: outcome.applied, activity: try .init(outcome.event)))))
    }

    func recordActivityBatch(_ input: Operations.RecordActivityBatch.Input) async throws
        -> Operations.RecordActivityBatch.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let caller = try RequestCaller.required()
        if body.events.count > Activities.maximumBatchSize {
            throw ValidationError(
                field: "events",
                reason: "must hold at most \(Activities.maximumBatchSize) events; split the batch"
            )
        }
        // Items whose shape is wrong for their type are rejected on their own, like items that break a rule.
        var inputs: [(index: Int, input: ActivityInput)] = []
        var results: [Int: Components.Schemas.ActivityBatchItem] = [:]
        for (index, item) in body.events.enumerated() {
            do {
                inputs.append((index, try ActivityInput(item, field: "events[\(index)].")))
            } catch let error as ValidationError {
                results[index] = .init(
                    index: index,
                    clientEventId: item.clientEventId,
                    status: .rejected,
                    problem: .init(.validationFailed(error.violations))
                )
            }
        }
        let migration = body.migrationId.map(MigrationSession.ID.init)
        if let migration { try await self.engine.activities.requireMigration(migration, of: caller.userID) }
        let outcomes = try await self.engine.activities.recordBatch(inputs.map(\.input), for: caller.userID)
        for ((index, input), outcome) in zip(inputs, outcomes) {
            results[index] = try .init(index: index, outcome: outcome, clientEventID: input.clientEventID)
        }
        let ordered = (0..<body.events.count).compactMap { results[$0] }
        if let migration {
            try await self.engine.activities.note(
                ordered.map { ($0.clientEventId, MigrationSession.Outcome($0.status)) },
                in: migration
            )
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        results: ordered,
                        created: ordered.filter { $0.status == .created }.count,
                        replayed: ordered.filter { $0.status == .replayed }.count,
                        rejected: ordered.filter { $0.status == .rejected }.count
                    )
                )
            )
        )
    }

    func listActivities(_ input: Operations.ListActivities.Input) async throws -> Operations.ListActivities.Output {
        let caller = try RequestCaller.required()
        let limit = input.query.limit ?? 50
        guard (1...200).contains(limit) else {
            throw ValidationError(field: "limit", reason: "must be between 1 and 200")
        }
        let query = ActivityQuery(
            kind: try input.query._type.map(mapped),
            from: try localDate(input.query.from, field: "from"),
            to: try localDate(input.query.to, field: "to"),
            after: try input.query.cursor.map(ActivityCursor.decode),
            limit: limit
        )
        let events = try await self.engine.activities.activities(of: caller.userID, query: query)
        let next =
            events.count == limit
            ? events.last.map { ActivityCursor.encode(occurredAt: $0.occurredAt, id: $0.id) } : nil
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try events.map { try Components.Schemas.Activity($0, withRoute: false) },
                        nextCursor: next
                    )
                )
            )
        )
    }

    func listActivityChanges(_ input: Operations.ListActivityChanges.Input) async throws
        -> Operations.ListActivityChanges.Output
    {
        let caller = try RequestCaller.required()
        // A page cursor says which pass it continues (tombstones or not); a sync token where to start.
        var (since, after, tombstones) = (Date?.none, InstantKey?.none, false)
        if let token = input.query.since {
            guard let start = try? InstantCursor.decode(token, of: .activitySync) else {
                throw ValidationError(field: "since", reason: "is not a syncToken (use the last sync's as given)")
            }
            (since, tombstones) = (start.at, true)
        }
        if let cursor = input.query.cursor {
            if let key = try? InstantCursor.decode(cursor, of: .activityChanges) {
                (after, tombstones) = (key, true)
            } else {
                (after, tombstones) = (try InstantCursor.decode(cursor, of: .activityFirstSync), false)
            }
        }
        let page = try await self.engine.activities.changes(
            of: caller.userID,
            since: since,
            after: after,
            tombstones: tombstones,
            limit: input.query.limit ?? Activities.changesPageSize
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try page.items.map(Components.Schemas.ActivityChange.init),
                        nextCursor: page.next.map {
                            InstantCursor.encode(tombstones ? .activityChanges : .activityFirstSync, $0)
                        },
                        syncToken: page.next == nil
                            ? InstantCursor.encode(.activitySync, InstantKey(at: page.nextSince, id: "-")) : nil
                    )
                )
            )
        )
    }

    func getActivity(_ input: Operations.GetActivity.Input) async throws -> Operations.GetActivity.Output {
        let event = try await self.engine.activities.activity(
            ActivityEvent.ID(input.path.id),
            of: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(try .init(event))))
    }

    func setActivityVisibility(_ input: Operations.SetActivityVisibility.Input) async throws
        -> Operations.SetActivityVisibility.Output
    {
        guard case .json(let body) = input.body else {
            throw ValidationError(field: "visibility", reason: "is required")
        }
        let event = try await self.engine.activities.setVisibility(
            mapped(body.visibility),
            of: ActivityEvent.ID(input.path.id),
            for: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(try .init(event))))
    }

    func deleteActivity(_ input: Operations.DeleteActivity.Input) async throws -> Operations.DeleteActivity.Output {
        try await self.engine.activities.delete(
            ActivityEvent.ID(input.path.id),
            of: try RequestCaller.required().userID
        )
        return .noContent(.init())
    }

    func getUserStats(_ input: Operations.GetUserStats.Input) async throws -> Operations.GetUserStats.Output {
        let caller = try RequestCaller.required()
        let (totals, records) = try await self.engine.activities.statistics(of: caller.userID)
        let points = try await self.engine.rewards.stats(of: caller.user)
        return .ok(
            .init(
                body: .json(
                    .init(
                        points: .init(points, unit: self.engine.profile.rewards.unit),
                        totalDistanceMeters: totals.distanceMeters,
                        totalActivities: totals.activities,
                        totalSteps: totals.steps,
                        activeDays: totals.activeDays,
                        personalRecords: try records.map(Components.Schemas.PersonalRecord.init)
                    )
                )
            )
        )
    }
}

extension Components.Schemas.ActivityBatchItem {
    init(index: Int, outcome: Activities.Outcome, clientEventID: String) throws {
        switch outcome {
        case .created(let event, let reward):
            self.init(
                index: index,
                clientEventId: clientEventID,
                status: .created,
                activity: try .init(event, reward: reward, withRoute: false)
            )
        case .replayed(let event):
            self.init(
                index: index,
                clientEventId: clientEventID,
                status: .replayed,
                activity: try .init(event, withRoute: false)
            )
        case .rejected(_, .invalid(let error)):
            self.init(
                index: index,
                clientEventId: clientEventID,
                status: .rejected,
                problem: .init(.validationFailed(error.violations))
            )
        case .rejected(_, .conflict(let reason)):
            self.init(index: index, clientEventId: clientEventID, status: .rejected, problem: .init(.conflict(reason)))
        }
    }
}

extension Components.Schemas.Problem {
    init(_ problem: ProblemDocument) {
        self.init(
            _type: problem.type,
            title: problem.title,
            status: problem.status,
            detail: problem.detail,
            errors: problem.errors?.map { .init(field: $0.field, reason: $0.reason) }
        )
    }
}

extension API {
    func openMigration(_ input: Operations.OpenMigration.Input) async throws -> Operations.OpenMigration.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let session = try await self.engine.activities.openMigration(
            expected: body.expected,
            for: try RequestCaller.required().userID
        )
        return .created(.init(body: .json(.init(session))))
    }

    func getMigration(_ input: Operations.GetMigration.Input) async throws -> Operations.GetMigration.Output {
        let session = try await self.engine.activities.migration(
            MigrationSession.ID(input.path.id),
            of: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(.init(session))))
    }
}
