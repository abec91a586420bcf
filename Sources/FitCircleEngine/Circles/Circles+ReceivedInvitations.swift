public import FitCircleCore
public import FitCircleStore
import Foundation

/// The invitations to circles a person received (review I44): listed, read one by one (what the
/// `circle_invitation` notification opens), accepted by joining with the invitation, or declined.
extension Circles {
    /// A pending invitation with its circle as the invitee may see it.
    public struct ReceivedInvitation: Equatable, Sendable {
        public var invitation: CircleInvitation
        public var circle: View
    }

    /// What a page of received invitations may hold, and holds when the caller does not say.
    public static let receivedInvitationsPage = 1...100
    public static let receivedInvitationsPageSize = 20

    /// The caller's pending invitations, newest first, after the invitation `cursor` names. An invitation to
    /// a circle the caller may no longer see (its owner blocked them) is left out, so a page may be short.
    public func invitationsReceived(by user: User.ID, after cursor: CircleInvitation.ID?, limit: Int) async throws
        -> (items: [ReceivedInvitation], next: CircleInvitation.ID?)
    {
        var validator = Validator()
        validator.check(Self.receivedInvitationsPage.contains(limit), "limit", "must be between 1 and 100")
        try validator.throwIfInvalid()
        let now = self.clock.now()
        return try await self.store.read { tx in
            let email = try await tx.users.find(user)?.email
            if let cursor {
                guard let named = try await tx.circles.invitation(cursor), named.isAddressed(to: user, email: email)
                else {
                    throw ValidationError(field: "cursor", reason: "names no invitation of yours")
                }
            }
            let page = try await tx.circles.pendingInvitations(
                receivedBy: user,
                email: email,
                at: now,
                after: cursor,
                limit: limit + 1
            )
            var items: [ReceivedInvitation] = []
            for invitation in page.prefix(limit) {
                do {
                    items.append(try await self.received(invitation, by: user, in: tx))
                } catch is DomainError {
                    continue
                }
            }
            return (items, page.count > limit ? page[limit - 1].id : nil)
        }
    }

    /// One of the caller's pending invitations. 404 for one that is not theirs, no longer pending, or to a
    /// circle they may no longer see.
    public func invitationReceived(_ id: CircleInvitation.ID, by user: User.ID) async throws -> ReceivedInvitation {
        let now = self.clock.now()
        return try await self.store.read { tx in
            let invitation = try await self.addressed(id, to: user, in: tx)
            guard invitation.isPending(at: now) else {
                throw DomainError.notFound(resource: "invitation", id: id.rawValue)
            }
            return try await self.received(invitation, by: user, in: tx)
        }
    }

    /// The invitation with its circle, when the policy lets the invitee read the circle.
    private func received(_ invitation: CircleInvitation, by user: User.ID, in tx: Transaction) async throws
        -> ReceivedInvitation
    {
        let circle = try await self.allowed(.read, invitation.circleID, by: user, in: tx)
        return ReceivedInvitation(
            invitation: invitation,
            circle: View(circle: circle.circle, role: circle.membership?.role, memberCount: circle.memberCount)
        )
    }

    /// Declines one of the caller's invitations: it is no longer pending, for them or the circle's managers.
    /// Declining again, or one that lapsed or was accepted, changes nothing.
    public func decline(_ id: CircleInvitation.ID, by user: User.ID) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            let invitation = try await self.addressed(id, to: user, in: tx)
            if invitation.isPending(at: now) { try await tx.circles.revokeInvitation(id, at: now) }
        }
    }

    /// The invitation when it is addressed to `user`; else 404, as for one that does not exist.
    private func addressed(_ id: CircleInvitation.ID, to user: User.ID, in tx: Transaction) async throws
        -> CircleInvitation
    {
        let email = try await tx.users.find(user)?.email
        guard let invitation = try await tx.circles.invitation(id), invitation.isAddressed(to: user, email: email)
        else {
            throw DomainError.notFound(resource: "invitation", id: id.rawValue)
        }
        return invitation
    }
}
