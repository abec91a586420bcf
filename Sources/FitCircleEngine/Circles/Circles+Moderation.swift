public import FitCircleCore
public import FitCircleStore
import Foundation

/// What a circle's managers keep in order: the join code, pending invitations, and who is kept out.
extension Circles {
    /// A new join code for the circle (owner and admins); the old one stops working at once.
    public func rotateJoinCode(of id: FitCircle.ID, by user: User.ID) async throws -> View {
        try await self.store.transaction { tx in
            var found = try await self.allowed(.rotateCode, id, by: user, in: tx, locked: true)
            guard !found.circle.isArchived else {
                throw DomainError.refused(Refusal(.circleArchived, "The circle is archived."))
            }
            found.circle.joinCode = Self.joinCode()
            try await tx.circles.setJoinCode(found.circle.joinCode, of: id)
            return View(circle: found.circle, role: found.membership?.role, memberCount: found.memberCount)
        }
    }

    /// The circle's pending invitations, newest first (owner and admins).
    public func invitations(of id: FitCircle.ID, for user: User.ID) async throws -> [CircleInvitation] {
        let now = self.clock.now()
        return try await self.store.read { tx in
            _ = try await self.allowed(.manageInvitations, id, by: user, in: tx)
            return try await tx.circles.pendingInvitations(to: id, at: now)
        }
    }

    /// Revokes an invitation of the circle (owner and admins); one no longer pending stays as it is.
    public func revoke(_ invitation: CircleInvitation.ID, of id: FitCircle.ID, by user: User.ID) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            _ = try await self.allowed(.manageInvitations, id, by: user, in: tx, locked: true)
            guard let found = try await tx.circles.invitation(invitation), found.circleID == id else {
                throw DomainError.notFound(resource: "invitation", id: invitation.rawValue)
            }
            if found.isPending(at: now) { try await tx.circles.revokeInvitation(invitation, at: now) }
        }
    }

    /// The people removed from the circle and kept out (owner and admins).
    public func bans(in id: FitCircle.ID, for user: User.ID) async throws -> [CircleBan] {
        try await self.store.read { tx in
            _ = try await self.allowed(.liftBan, id, by: user, in: tx)
            return try await tx.circles.bans(in: id)
        }
    }

    /// Lets a removed person join again (owner and admins).
    public func liftBan(of member: User.ID, in id: FitCircle.ID, by user: User.ID) async throws {
        try await self.store.transaction { tx in
            _ = try await self.allowed(.liftBan, id, by: user, in: tx, locked: true)
            guard try await tx.circles.liftBan(of: member, from: id) else {
                throw DomainError.notFound(resource: "ban of user", id: member.rawValue)
            }
        }
    }
}
