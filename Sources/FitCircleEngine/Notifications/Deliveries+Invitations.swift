public import FitCircleCore
import FitCircleDelivery
public import FitCircleJobs
import FitCircleStore
import Foundation

/// Invitations to addresses with no account (spec 000 F7: "invitations by email"): a job queued with the
/// invitation sends one email with a link to the invitation's page. Whoever signs up with that address
/// later is told in the app (`Accounts`), so the email goes only while nobody holds the address.
extension Deliveries {
    public static let emailInvitation = "circle.invitation_email"

    struct InvitationReference: Codable, Sendable {
        var invitation: String
    }

    /// The job that emails `invitation` when the inviting transaction commits.
    static func emailing(_ invitation: CircleInvitation.ID, ids: IDGenerator, at now: Date) throws -> JobRecord {
        JobRecord(
            id: ids.make(JobRecord.self).rawValue,
            kind: Self.emailInvitation,
            payload: String(
                decoding: try JSONEncoder().encode(InvitationReference(invitation: invitation.rawValue)),
                as: UTF8.self
            ),
            dedupeKey: "invitation_email:\(invitation)",
            runAt: now,
            maxAttempts: Self.attempts
        )
    }

    /// Sends the email unless the invitation is no longer pending or the address has an account by now;
    /// what the provider may take later is tried again (the job's backoff, the provider's `Retry-After`).
    func emailInvitation(_ job: JobRecord) async throws {
        let reference = try JSONDecoder().decode(InvitationReference.self, from: Data(job.payload.utf8))
        let now = self.clock.now()
        let found = try await self.store.read { tx -> (CircleInvitation, inviter: String, circle: String)? in
            guard let invitation = try await tx.circles.invitation(CircleInvitation.ID(reference.invitation)),
                invitation.isPending(at: now),
                let address = invitation.email, try await tx.users.find(withEmail: address) == nil,
                let circle = try await tx.circles.circle(invitation.circleID), !circle.isArchived,
                let inviter = try await tx.users.find(invitation.invitedBy)
            else { return nil }
            return (invitation, inviter.profile.displayName, circle.name)
        }
        guard let (invitation, inviter, circle) = found, let email = self.transports.email, let composer = self.composer
        else { return }
        let attempt = await email.transport.send(
            composer.composeInvitation(invitation, inviter: inviter, circle: circle)
        )
        if case .retryable(let reason, let after) = attempt.outcome { throw RetryLater(reason: reason, after: after) }
    }
}
