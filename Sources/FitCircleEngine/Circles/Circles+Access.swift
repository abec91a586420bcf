public import FitCircleCore
public import FitCircleStore
import Foundation

/// The engine's half of the access policy for circles: it gathers the facts `CircleAccess` decides on (the
/// caller's role, a pending invitation, a ban, operator rights), reading only what the action needs, and
/// throws the policy's denial (404 for what the caller may not know exists, 403 otherwise).
extension Circles {
    /// A circle the caller was allowed to act on, with their current stint and the member count.
    struct Allowed {
        var circle: FitCircle
        var membership: CircleMembership?
        var memberCount: Int
    }

    /// The circle once `action` is allowed to `user`; `locked` takes the circle's row lock first (writes).
    func allowed(
        _ action: CircleAccess.Action,
        _ id: FitCircle.ID,
        by user: User.ID,
        in tx: Transaction,
        locked: Bool = false
    ) async throws -> Allowed {
        let found: Allowed
        if locked {
            guard let circle = try await tx.circles.locked(id) else {
                throw DomainError.notFound(resource: "circle", id: id.rawValue)
            }
            found = Allowed(
                circle: circle,
                membership: try await tx.circles.membership(of: user, in: id),
                memberCount: try await tx.circles.memberCount(of: id)
            )
        } else {
            guard let seen = try await tx.circles.circle(id, seenBy: user) else {
                throw DomainError.notFound(resource: "circle", id: id.rawValue)
            }
            found = Allowed(circle: seen.circle, membership: seen.membership, memberCount: seen.memberCount)
        }
        let facts = try await self.facts(action, found.circle, membership: found.membership, of: user, in: tx)
        try CircleAccess.decide(action, facts).require("circle", id.rawValue)
        return found
    }

    /// The same for reads outside a transaction (boards): from this node's memory when it holds the circle,
    /// reading the database only for what memory cannot say (an invitation, operator rights).
    func allowed(_ action: CircleAccess.Action, _ id: FitCircle.ID, by user: User.ID) async throws -> Allowed {
        guard let seen = try await self.store.cachedCircle(id, seenBy: user) else {
            throw DomainError.notFound(resource: "circle", id: id.rawValue)
        }
        var facts = CircleAccess.Facts(privacy: seen.circle.privacy, role: seen.membership?.role)
        if CircleAccess.decide(action, facts) != .allowed {
            facts = try await self.store.read { tx in
                try await self.facts(action, seen.circle, membership: seen.membership, of: user, in: tx)
            }
        }
        try CircleAccess.decide(action, facts).require("circle", id.rawValue)
        return Allowed(circle: seen.circle, membership: seen.membership, memberCount: seen.memberCount)
    }

    /// What the policy needs to know about `user` and `circle` for `action`; the account is read only when
    /// the role alone cannot decide.
    func facts(
        _ action: CircleAccess.Action,
        _ circle: FitCircle,
        membership: CircleMembership?,
        of user: User.ID,
        in tx: Transaction
    ) async throws -> CircleAccess.Facts {
        var facts = CircleAccess.Facts(privacy: circle.privacy, role: membership?.role)
        if action == .join { facts.banned = try await tx.circles.isBanned(user, from: circle.id) }
        if membership == nil, circle.ownerID != user {
            facts.blockedByOwner = try await tx.friends.hasBlocked(circle.ownerID, user)
        }
        guard CircleAccess.decide(action, facts) != .allowed, membership == nil || action == .refreshBoards else {
            return facts
        }
        let account = try await tx.users.find(user)
        facts.isOperator = account?.role == .operator
        if membership == nil, circle.privacy == .private {
            let now = self.clock.now()
            facts.invited =
                try await tx.circles.pendingInvitation(to: circle.id, user: user, email: account?.email, at: now) != nil
        }
        return facts
    }
}
