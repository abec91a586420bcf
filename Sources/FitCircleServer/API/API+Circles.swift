import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension API {
    func listFitCircles(_ input: Operations.ListFitCircles.Input) async throws -> Operations.ListFitCircles.Output {
        let page = try await self.engine.circles.circles(
            of: try RequestCaller.required().userID,
            after: try input.query.cursor.map { try InstantCursor.decode($0, of: .myCircles) },
            limit: input.query.limit ?? Circles.circlePageSize
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try page.items.map(Components.Schemas.FitCircle.init),
                        nextCursor: page.next.map { InstantCursor.encode(.myCircles, $0) }
                    )
                )
            )
        )
    }

    func createFitCircle(_ input: Operations.CreateFitCircle.Input) async throws -> Operations.CreateFitCircle.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let view = try await self.engine.circles.create(
            try body.input,
            weights: body.weights,
            by: try RequestCaller.required().userID
        )
        return .created(.init(body: .json(try .init(view))))
    }

    func joinFitCircle(_ input: Operations.JoinFitCircle.Input) async throws -> Operations.JoinFitCircle.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let view = try await self.engine.circles.join(
            code: try JoinCode.given(joinCode: body.joinCode, code: body.code),
            invitation: body.invitationId.map(CircleInvitation.ID.init),
            weights: WeightGoalInput(startingWeightKg: body.startingWeightKg, targetWeightKg: body.targetWeightKg),
            by: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(try .init(view))))
    }

    func getFitCircle(_ input: Operations.GetFitCircle.Input) async throws -> Operations.GetFitCircle.Output {
        let view = try await self.engine.circles.circle(
            FitCircle.ID(input.path.id),
            for: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(try .init(view))))
    }

    func updateFitCircle(_ input: Operations.UpdateFitCircle.Input) async throws -> Operations.UpdateFitCircle.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let view = try await self.engine.circles.update(
            FitCircle.ID(input.path.id),
            with: try body.input,
            by: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(try .init(view))))
    }

    func changeFitCircle(_ input: Operations.ChangeFitCircle.Input) async throws -> Operations.ChangeFitCircle.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let view = try await self.engine.circles.change(
            FitCircle.ID(input.path.id),
            with: try body.change,
            by: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(try .init(view))))
    }

    func archiveFitCircle(_ input: Operations.ArchiveFitCircle.Input) async throws -> Operations.ArchiveFitCircle.Output
    {
        try await self.engine.circles.archive(FitCircle.ID(input.path.id), by: try RequestCaller.required().userID)
        return .noContent(.init())
    }

    func inviteToFitCircle(_ input: Operations.InviteToFitCircle.Input) async throws
        -> Operations.InviteToFitCircle.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let (invitation, created) = try await self.engine.circles.invite(
            to: FitCircle.ID(input.path.id),
            user: body.userId.map(User.ID.init),
            email: body.email,
            by: try RequestCaller.required().userID
        )
        return created ? .created(.init(body: .json(.init(invitation)))) : .ok(.init(body: .json(.init(invitation))))
    }

    func leaveFitCircle(_ input: Operations.LeaveFitCircle.Input) async throws -> Operations.LeaveFitCircle.Output {
        try await self.engine.circles.leave(FitCircle.ID(input.path.id), by: try RequestCaller.required().userID)
        return .noContent(.init())
    }

    func listFitCircleMembers(_ input: Operations.ListFitCircleMembers.Input) async throws
        -> Operations.ListFitCircleMembers.Output
    {
        let (members, next) = try await self.engine.circles.members(
            of: FitCircle.ID(input.path.id),
            for: try RequestCaller.required().userID,
            after: try input.query.cursor.map { User.ID(try PageCursor.id($0, of: .members)) },
            limit: input.query.limit ?? Circles.memberPageSize
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try members.map(Components.Schemas.CircleMember.init),
                        nextCursor: next.map { PageCursor.encode(.members, $0.rawValue) }
                    )
                )
            )
        )
    }

    func setFitCircleRole(_ input: Operations.SetFitCircleRole.Input) async throws -> Operations.SetFitCircleRole.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let circle = FitCircle.ID(input.path.id)
        let member = try await self.engine.circles.setRole(
            mapped(body.role),
            of: User.ID(input.path.userId),
            in: circle,
            by: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(try .init(member))))
    }

    func removeFitCircleMember(_ input: Operations.RemoveFitCircleMember.Input) async throws
        -> Operations.RemoveFitCircleMember.Output
    {
        try await self.engine.circles.remove(
            User.ID(input.path.userId),
            from: FitCircle.ID(input.path.id),
            by: try RequestCaller.required().userID
        )
        return .noContent(.init())
    }
}

extension API {
    func submitToFitCircle(_ input: Operations.SubmitToFitCircle.Input) async throws
        -> Operations.SubmitToFitCircle.Output
    {
        let date = try localDate(input.query.date, field: "date")
        let outcomes = try await self.engine.circles.submit(
            to: FitCircle.ID(input.path.id),
            date: date,
            by: try RequestCaller.required().userID
        )
        let outcome = outcomes[0]
        let body = Components.Schemas.CircleSubmission(outcome)
        return outcome.created ? .created(.init(body: .json(body))) : .ok(.init(body: .json(body)))
    }

    func submitToAllFitCircles(_ input: Operations.SubmitToAllFitCircles.Input) async throws
        -> Operations.SubmitToAllFitCircles.Output
    {
        let date = try localDate(input.query.date, field: "date")
        let outcomes = try await self.engine.circles.submit(
            to: nil,
            date: date,
            by: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(.init(items: outcomes.map(Components.Schemas.CircleSubmission.init)))))
    }

    func getFitCircleSubmissionsToday(_ input: Operations.GetFitCircleSubmissionsToday.Input) async throws
        -> Operations.GetFitCircleSubmissionsToday.Output
    {
        let today = try await self.engine.circles.submissionsToday(
            of: FitCircle.ID(input.path.id),
            for: try RequestCaller.required().userID,
            after: try input.query.cursor.map { User.ID(try PageCursor.id($0, of: .claimsToday)) },
            limit: input.query.limit ?? Circles.memberPageSize
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        date: today.date.iso,
                        items: today.members.map { status in
                            .init(
                                userId: status.member.membership.userID.rawValue,
                                displayName: status.member.displayName,
                                submitted: status.submission != nil,
                                submittedAt: status.submission?.submittedAt,
                                ago: status.ago,
                                steps: status.showsSteps ? status.submission?.steps : nil
                            )
                        },
                        nextCursor: today.next.map { PageCursor.encode(.claimsToday, $0.rawValue) }
                    )
                )
            )
        )
    }

    func getPendingSubmissions(_ input: Operations.GetPendingSubmissions.Input) async throws
        -> Operations.GetPendingSubmissions.Output
    {
        let pending = try await self.engine.circles.pendingSubmissions(of: try RequestCaller.required().userID)
        return .ok(
            .init(
                body: .json(
                    .init(
                        date: pending.date.iso,
                        items: pending.circles.map { .init(circleId: $0.id.rawValue, name: $0.name) }
                    )
                )
            )
        )
    }
}

extension API {
    func getTeamWeeks(_ input: Operations.GetTeamWeeks.Input) async throws -> Operations.GetTeamWeeks.Output {
        let weeks = try await self.engine.circles.teamWeeks(
            of: try RequestCaller.required().userID,
            circle: input.query.circleId.map(FitCircle.ID.init)
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: weeks.map { week in
                            .init(
                                circleId: week.circle.id.rawValue,
                                name: week.circle.name,
                                weekStart: week.weekStart.iso,
                                days: week.days.map { .init(date: $0.date.iso, steps: $0.steps) },
                                totalSteps: week.totalSteps,
                                members: week.members,
                                contributors: week.contributors,
                                top: week.top.map {
                                    .init(
                                        userId: $0.member.membership.userID.rawValue,
                                        displayName: $0.member.displayName,
                                        steps: $0.steps
                                    )
                                },
                                yourSteps: week.yourSteps
                            )
                        }
                    )
                )
            )
        )
    }
}

extension API {
    func listFitCircleInvitations(_ input: Operations.ListFitCircleInvitations.Input) async throws
        -> Operations.ListFitCircleInvitations.Output
    {
        let page = try await self.engine.circles.invitations(
            of: FitCircle.ID(input.path.id),
            for: try RequestCaller.required().userID,
            after: try input.query.cursor.map { try InstantCursor.decode($0, of: .sentInvitations) },
            limit: input.query.limit ?? Circles.moderationPageSize
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: page.items.map(Components.Schemas.CircleInvitation.init),
                        nextCursor: page.next.map { InstantCursor.encode(.sentInvitations, $0) }
                    )
                )
            )
        )
    }

    func listReceivedInvitations(_ input: Operations.ListReceivedInvitations.Input) async throws
        -> Operations.ListReceivedInvitations.Output
    {
        let page = try await self.engine.circles.invitationsReceived(
            by: try RequestCaller.required().userID,
            after: try input.query.cursor.map { CircleInvitation.ID(try PageCursor.id($0, of: .invitations)) },
            limit: input.query.limit ?? Circles.receivedInvitationsPageSize
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try page.items.map(Components.Schemas.ReceivedInvitation.init),
                        nextCursor: page.next.map { PageCursor.encode(.invitations, $0.rawValue) }
                    )
                )
            )
        )
    }

    func getReceivedInvitation(_ input: Operations.GetReceivedInvitation.Input) async throws
        -> Operations.GetReceivedInvitation.Output
    {
        let received = try await self.engine.circles.invitationReceived(
            CircleInvitation.ID(input.path.invitationId),
            by: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(try .init(received))))
    }

    func declineInvitation(_ input: Operations.DeclineInvitation.Input) async throws
        -> Operations.DeclineInvitation.Output
    {
        try await self.engine.circles.decline(
            CircleInvitation.ID(input.path.invitationId),
            by: try RequestCaller.required().userID
        )
        return .noContent(.init())
    }

    func revokeFitCircleInvitation(_ input: Operations.RevokeFitCircleInvitation.Input) async throws
        -> Operations.RevokeFitCircleInvitation.Output
    {
        try await self.engine.circles.revoke(
            CircleInvitation.ID(input.path.invitationId),
            of: FitCircle.ID(input.path.id),
            by: try RequestCaller.required().userID
        )
        return .noContent(.init())
    }

    func rotateFitCircleCode(_ input: Operations.RotateFitCircleCode.Input) async throws
        -> Operations.RotateFitCircleCode.Output
    {
        let view = try await self.engine.circles.rotateJoinCode(
            of: FitCircle.ID(input.path.id),
            by: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(try .init(view))))
    }

    func listFitCircleBans(_ input: Operations.ListFitCircleBans.Input) async throws
        -> Operations.ListFitCircleBans.Output
    {
        let page = try await self.engine.circles.bans(
            in: FitCircle.ID(input.path.id),
            for: try RequestCaller.required().userID,
            after: try input.query.cursor.map { try InstantCursor.decode($0, of: .bans) },
            limit: input.query.limit ?? Circles.moderationPageSize
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: page.items.map {
                            .init(
                                userId: $0.userID.rawValue,
                                displayName: $0.displayName,
                                bannedBy: $0.bannedBy.rawValue,
                                bannedAt: $0.bannedAt
                            )
                        },
                        nextCursor: page.next.map { InstantCursor.encode(.bans, $0) }
                    )
                )
            )
        )
    }

    func liftFitCircleBan(_ input: Operations.LiftFitCircleBan.Input) async throws -> Operations.LiftFitCircleBan.Output
    {
        try await self.engine.circles.liftBan(
            of: User.ID(input.path.userId),
            in: FitCircle.ID(input.path.id),
            by: try RequestCaller.required().userID
        )
        return .noContent(.init())
    }
}
