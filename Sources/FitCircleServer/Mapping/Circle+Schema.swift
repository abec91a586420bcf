import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension Components.Schemas.FitCircle {
    /// The join code is shown to members only.
    init(_ view: Circles.View) throws {
        let circle = view.circle
        self.init(
            id: circle.id.rawValue,
            name: circle.name,
            description: circle.description,
            metric: try mapped(circle.metric),
            startDate: circle.startDate.iso,
            endDate: circle.endDate?.iso,
            timeZone: circle.timeZone,
            privacy: try mapped(circle.privacy),
            memberLimit: circle.memberLimit,
            stepGoal: circle.stepGoal,
            memberCount: view.memberCount,
            ownerId: circle.ownerID.rawValue,
            role: try view.role.map(mapped),
            joinCode: view.role == nil ? nil : circle.joinCode,
            archivedAt: circle.archivedAt,
            createdAt: circle.createdAt
        )
    }
}

extension Components.Schemas.FitCircleInput {
    var input: CircleInput {
        get throws {
            CircleInput(
                name: self.name,
                description: self.description,
                metric: try mapped(self.metric),
                startDate: try localDate(self.startDate, field: "startDate"),
                endDate: try localDate(self.endDate, field: "endDate"),
                timeZone: self.timeZone,
                privacy: try self.privacy.map(mapped),
                memberLimit: self.memberLimit,
                stepGoal: self.stepGoal
            )
        }
    }

    var weights: WeightGoalInput {
        WeightGoalInput(startingWeightKg: self.startingWeightKg, targetWeightKg: self.targetWeightKg)
    }
}

extension Components.Schemas.FitCircleChange {
    var change: CircleChange {
        get throws {
            CircleChange(
                name: self.name,
                description: self.description,
                metric: try self.metric.map(mapped),
                startDate: try localDate(self.startDate, field: "startDate"),
                endDate: try localDate(self.endDate, field: "endDate"),
                timeZone: self.timeZone,
                privacy: try self.privacy.map(mapped),
                memberLimit: self.memberLimit,
                stepGoal: self.stepGoal
            )
        }
    }
}

extension Components.Schemas.CircleMember {
    init(_ row: CircleMemberRow) throws {
        try self.init(row.membership, displayName: row.displayName, hasPhoto: row.photo != nil)
    }

    init(_ membership: CircleMembership, displayName: String, hasPhoto: Bool) throws {
        self.init(
            userId: membership.userID.rawValue,
            displayName: displayName,
            photoUrl: hasPhoto ? photoURL(of: membership.userID) : nil,
            role: try mapped(membership.role),
            joinedAt: membership.joinedAt,
            startingWeightKg: membership.startingWeightKg,
            targetWeightKg: membership.targetWeightKg
        )
    }
}

extension Components.Schemas.ReceivedInvitation {
    init(_ received: Circles.ReceivedInvitation) throws {
        self.init(
            id: received.invitation.id.rawValue,
            circle: try .init(received.circle),
            invitedBy: received.invitation.invitedBy.rawValue,
            createdAt: received.invitation.createdAt,
            expiresAt: received.invitation.expiresAt
        )
    }
}

extension Components.Schemas.CircleInvitation {
    init(_ invitation: FitCircleCore.CircleInvitation) {
        self.init(
            // An invitation by email names the address only: whether it has an account is not the inviter's to learn.
            id: invitation.id.rawValue,
            circleId: invitation.circleID.rawValue,
            userId: invitation.email == nil ? invitation.userID?.rawValue : nil,
            email: invitation.email,
            invitedBy: invitation.invitedBy.rawValue,
            createdAt: invitation.createdAt,
            expiresAt: invitation.expiresAt
        )
    }
}

extension Components.Schemas.CircleSubmission {
    init(_ outcome: Circles.SubmissionOutcome) {
        let claim = outcome.submission
        self.init(
            circleId: claim.circleID.rawValue,
            date: claim.date.iso,
            steps: claim.steps,
            weightKg: claim.weightKg,
            checkinStreak: claim.checkinStreak,
            submittedAt: claim.submittedAt,
            updatedAt: claim.updatedAt,
            rankAfter: claim.rankAfter,
            rankChange: claim.rankChange,
            replayed: outcome.replayed
        )
    }
}
