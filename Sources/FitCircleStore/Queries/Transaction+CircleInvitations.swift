public import FitCircleCore
public import Foundation
import SQLKit

/// Invitations to circles: pending ones lapse `CircleInvitation.lifetime` after they were made.
extension CircleQueries {
    private var sql: any SQLDatabase { self.tx.sql }
    public func insert(_ invitation: CircleInvitation) async throws {
        try await self.sql.raw(
            """
            INSERT INTO circle_invitations (id, circle_id, user_id, email, invited_by, created_at, accepted_at, revoked_at)
            VALUES (\(bind: invitation.id.rawValue), \(bind: invitation.circleID.rawValue), \(bind: invitation.userID?.rawValue),
                \(bind: invitation.email), \(bind: invitation.invitedBy.rawValue), \(bind: invitation.createdAt), \(bind: invitation.acceptedAt),
                \(bind: invitation.revokedAt))
            """
        ).run()
    }

    public func invitation(_ id: CircleInvitation.ID) async throws -> CircleInvitation? {
        try await self.sql.raw("SELECT * FROM circle_invitations WHERE id = \(bind: id.rawValue)").first().map(
            Self.invitation(from:)
        )
    }

    /// A pending invitation of the circle for this account or address at `now`.
    public func pendingInvitation(to circle: FitCircle.ID, user: User.ID?, email: String?, at now: Date) async throws
        -> CircleInvitation?
    {
        try await self.sql.raw(
            """
            SELECT * FROM circle_invitations WHERE circle_id = \(bind: circle.rawValue) AND accepted_at IS NULL AND revoked_at IS NULL
                AND created_at > \(bind: now.addingTimeInterval(-CircleInvitation.lifetime))
                AND (user_id = \(bind: user?.rawValue ?? "") OR email = \(bind: email ?? ""))
            ORDER BY created_at LIMIT 1
            """
        ).first().map(Self.invitation(from:))
    }

    /// The pending invitations sent to `email` before an account held it, oldest first.
    public func pendingInvitations(toEmail email: String, at now: Date) async throws -> [CircleInvitation] {
        try await self.sql.raw(
            """
            SELECT * FROM circle_invitations WHERE email = \(bind: email) AND user_id IS NULL AND accepted_at IS NULL AND revoked_at IS NULL
                AND created_at > \(bind: now.addingTimeInterval(-CircleInvitation.lifetime))
            ORDER BY created_at, id LIMIT 100
            """
        ).all().map(Self.invitation(from:))
    }

    /// The circle's pending invitations at `now`, newest first, a page at a time: after `last`, the page
    /// before's last (when it was made and its id; one revoked since does not end the list).
    public func pendingInvitations(
        to circle: FitCircle.ID,
        at now: Date,
        after last: InstantKey?,
        limit: Int
    ) async throws -> [CircleInvitation] {
        let after: SQLQueryString =
            last.map { "AND \(self.tx.keyset("created_at", "id", after: $0, descending: true))" } ?? ""
        return try await self.sql.raw(
            """
            SELECT * FROM circle_invitations WHERE circle_id = \(bind: circle.rawValue) AND accepted_at IS NULL AND revoked_at IS NULL
                AND created_at > \(bind: now.addingTimeInterval(-CircleInvitation.lifetime)) \(after)
            ORDER BY created_at DESC, id DESC LIMIT \(bind: limit)
            """
        ).all().map(Self.invitation(from:))
    }

    /// The pending invitations addressed to the account (`CircleInvitation.isAddressed`), newest first, after
    /// the invitation `cursor` names.
    public func pendingInvitations(
        receivedBy user: User.ID,
        email: String?,
        at now: Date,
        after cursor: CircleInvitation.ID?,
        limit: Int
    ) async throws -> [CircleInvitation] {
        let after =
            cursor.map {
                SQLQueryString(
                    "AND (created_at, id) < (SELECT c.created_at, c.id FROM circle_invitations c WHERE c.id = \(bind: $0.rawValue))"
                )
            } ?? ""
        return try await self.sql.raw(
            """
            SELECT * FROM circle_invitations
            WHERE (user_id = \(bind: user.rawValue) OR (user_id IS NULL AND email = \(bind: email ?? "")))
                AND accepted_at IS NULL AND revoked_at IS NULL
                AND created_at > \(bind: now.addingTimeInterval(-CircleInvitation.lifetime)) \(after)
            ORDER BY created_at DESC, id DESC LIMIT \(unsafeRaw: String(limit))
            """
        ).all().map(Self.invitation(from:))
    }

    public func acceptInvitation(_ id: CircleInvitation.ID, by user: User.ID, at now: Date) async throws {
        try await self.sql.raw(
            "UPDATE circle_invitations SET accepted_at = \(bind: now), user_id = \(bind: user.rawValue) WHERE id = \(bind: id.rawValue)"
        ).run()
    }

    public func revokeInvitation(_ id: CircleInvitation.ID, at now: Date) async throws {
        try await self.sql.raw(
            "UPDATE circle_invitations SET revoked_at = \(bind: now) WHERE id = \(bind: id.rawValue) AND revoked_at IS NULL"
        ).run()
    }

    /// How many invitations `sender` made since `since`, and when the oldest of them was.
    public func invitationCount(sentBy sender: User.ID, since: Date) async throws -> (count: Int, oldest: Date?) {
        try await self.count(
            """
            SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM circle_invitations
            WHERE invited_by = \(bind: sender.rawValue) AND created_at > \(bind: since)
            """
        )
    }

    /// How many invitations reached this account or address since `since`, and when the oldest did.
    public func invitationCount(receivedBy user: User.ID?, email: String?, since: Date) async throws -> (
        count: Int, oldest: Date?
    ) {
        try await self.count(
            """
            SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM circle_invitations
            WHERE (user_id = \(bind: user?.rawValue ?? "") OR email = \(bind: email ?? "")) AND created_at > \(bind: since)
            """
        )
    }

    private func count(_ query: SQLQueryString) async throws -> (count: Int, oldest: Date?) {
        guard let row = try await self.sql.raw(query).first() else { return (0, nil) }
        return (try row.decode(column: "n", as: Int.self), try row.decode(column: "oldest", as: Date?.self))
    }

    private static func invitation(from row: any SQLRow) throws -> CircleInvitation {
        CircleInvitation(
            id: CircleInvitation.ID(try row.decode(column: "id", as: String.self)),
            circleID: FitCircle.ID(try row.decode(column: "circle_id", as: String.self)),
            userID: try row.decode(column: "user_id", as: String?.self).map(User.ID.init),
            email: try row.decode(column: "email", as: String?.self),
            invitedBy: User.ID(try row.decode(column: "invited_by", as: String.self)),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            acceptedAt: try row.decode(column: "accepted_at", as: Date?.self),
            revokedAt: try row.decode(column: "revoked_at", as: Date?.self)
        )
    }
}
