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

    /// The sizes a page of a circle's invitations or bans may have, and its size when none is asked.
    public static let moderationPage = 1...200
    public static let moderationPageSize = 50

    /// The circle's pending invitations, newest first (owner and admins), a page at a time (`after`: the
    /// page before's last; `next` is this page's last when there are more).
    public func invitations(of id: FitCircle.ID, for user: User.ID, after last: InstantKey?, limit: Int) async throws
        -> (items: [CircleInvitation], next: InstantKey?)
    {
        try PageLimit.check(limit, within: Self.moderationPage)
        let now = self.clock.now()
        let page = PageOfRows(
            rows: try await self.store.read { tx in
                _ = try await self.allowed(.manageInvitations, id, by: user, in: tx)
                return try await tx.circles.pendingInvitations(to: id, at: now, after: last, limit: limit + 1)
            },
            limit: limit
        )
        return (Array(page.items), page.next { InstantKey(at: $0.createdAt, id: $0.id.rawValue) })
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

    /// The people removed from the circle and kept out (owner and admins), the latest first, a page at a
    /// time (as `invitations`).
    public func bans(in id: FitCircle.ID, for user: User.ID, after last: InstantKey?, limit: Int) async throws
        -> (items: [CircleBan], next: InstantKey?)
    {
        try PageLimit.check(limit, within: Self.moderationPage)
        let page = PageOfRows(
            rows: try await self.store.read { tx in
                _ = try await self.allowed(.liftBan, id, by: user, in: tx)
                return try await tx.circles.bans(in: id, after: last, limit: limit + 1)
            },
            limit: limit
        )
        return (Array(page.items), page.next { InstantKey(at: $0.bannedAt, id: $0.userID.rawValue) })
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
