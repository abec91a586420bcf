import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation
import OpenAPIRuntime

extension API {
    func findAccounts(_ input: Operations.FindAccounts.Input) async throws -> Operations.FindAccounts.Output {
        let raw = input.query.q.trimmingCharacters(in: .whitespaces)
        guard raw.utf8.count <= 320 else {
            throw ProblemDocument.badQuery(FieldViolation(field: "q", reason: "must be at most 320 bytes"))
        }
        guard let query = NameSearch.query(raw) else {
            throw ProblemDocument.badQuery(
                FieldViolation(
                    field: "q",
                    reason:
                        "must have at least \(NameSearch.minimumQueryLength) letters or digits; nothing was searched"
                )
            )
        }
        let accounts = try await self.engine.console.accounts(id: raw, query: query, by: try RequestCaller.required())
        return .ok(.init(body: .json(.init(items: try accounts.map(Components.Schemas.ConsoleAccount.init)))))
    }

    func getAccountFile(_ input: Operations.GetAccountFile.Input) async throws -> Operations.GetAccountFile.Output {
        let file = try await self.engine.console.file(of: User.ID(input.path.id), by: try RequestCaller.required())
        return .ok(.init(body: .json(try .init(file))))
    }

    func listJobs(_ input: Operations.ListJobs.Input) async throws -> Operations.ListJobs.Output {
        let state = JobState(rawValue: (input.query.state ?? .failed).rawValue) ?? .failed
        let (counts, jobs, next) = try await self.engine.console.jobs(
            in: state,
            after: try input.query.cursor.map { try PageCursor.id($0, of: .jobs) },
            limit: input.query.limit ?? 50,
            by: try RequestCaller.required()
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        counts: .init(
                            due: counts[.due] ?? 0,
                            scheduled: counts[.scheduled] ?? 0,
                            running: counts[.running] ?? 0,
                            failed: counts[.failed] ?? 0
                        ),
                        items: try jobs.map(Components.Schemas.ConsoleJob.init),
                        nextCursor: next.map { PageCursor.encode(.jobs, $0) }
                    )
                )
            )
        )
    }

    func retryJob(_ input: Operations.RetryJob.Input) async throws -> Operations.RetryJob.Output {
        let job = try await self.engine.console.retry(job: input.path.id, by: try RequestCaller.required())
        return .ok(.init(body: .json(try .init(job))))
    }

    func listDeliveries(_ input: Operations.ListDeliveries.Input) async throws -> Operations.ListDeliveries.Output {
        let query = input.query
        let page = try await self.engine.console.deliveries(
            channel: query.channel.flatMap { NotificationChannel(rawValue: $0.rawValue) },
            outcome: query.outcome?.rawValue,
            cursor: try query.cursor.map { try PageCursor.id($0, of: .deliveries) },
            limit: query.limit ?? 50,
            by: try RequestCaller.required()
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try page.entries.map(Components.Schemas.ConsoleDelivery.init),
                        nextCursor: page.nextCursor.map { PageCursor.encode(.deliveries, $0) }
                    )
                )
            )
        )
    }

    func listAllCircles(_ input: Operations.ListAllCircles.Input) async throws -> Operations.ListAllCircles.Output {
        let page = try await self.engine.console.circles(
            cursor: try input.query.cursor.map { try PageCursor.id($0, of: .circles) },
            limit: input.query.limit ?? 50,
            by: try RequestCaller.required()
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try page.items.map {
                            try Components.Schemas.ConsoleCircle($0.circle, members: $0.members)
                        },
                        nextCursor: page.nextCursor.map { PageCursor.encode(.circles, $0) }
                    )
                )
            )
        )
    }

    func listAllCompetitions(_ input: Operations.ListAllCompetitions.Input) async throws
        -> Operations.ListAllCompetitions.Output
    {
        let page = try await self.engine.console.challenges(
            cursor: try input.query.cursor.map { try PageCursor.id($0, of: .challenges) },
            limit: input.query.limit ?? 50,
            by: try RequestCaller.required()
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try page.items.map {
                            try Components.Schemas.ConsoleCompetition(
                                $0.challenge,
                                status: $0.status,
                                participants: $0.participants,
                                escrow: $0.escrow
                            )
                        },
                        nextCursor: page.nextCursor.map { PageCursor.encode(.challenges, $0) }
                    )
                )
            )
        )
    }

    func getActiveProfile(_ input: Operations.GetActiveProfile.Input) async throws -> Operations.GetActiveProfile.Output
    {
        let profile = try await self.engine.console.activeProfile(by: try RequestCaller.required())
        // The profile's own Codable form, as a free-form object.
        let whole = try JSONDecoder().decode(OpenAPIObjectContainer.self, from: try JSONEncoder().encode(profile))
        return .ok(
            .init(
                body: .json(
                    .init(
                        name: profile.name,
                        description: profile.description,
                        profile: .init(additionalProperties: whole)
                    )
                )
            )
        )
    }
}
