import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import Testing

/// Spec 000 F7's "invitations by email" to an address with no account: one email with a link to the
/// invitation's page; whoever signs up with the address finds it in their inbox and joins with it.
struct InvitationEmailTests {
    @Test(arguments: Backend.available)
    func f7_anAddressWithNoAccountIsEmailedAJoinLinkAndFindsTheInvitationOnSigningUp(_ backend: Backend) async throws {
        try await FakeSMTP.withTestApp(backend) { app, smtp in
            let ana = try await app.onboardedUser("ana@example.com")
            let circle = try await app.request(
                .post,
                "/api/fitcircles",
                token: ana,
                json: ["name": "Work <Warriors>", "metric": "steps"]
            ).decoded(as: Components.Schemas.FitCircle.self)
            let id = circle.id
            let sent = try await app.request(
                .post,
                "/api/fitcircles/\(id)/invite",
                token: ana,
                json: ["email": " Newcomer@Example.com "]
            )
            #expect(sent.status == .created, "\(sent.text)")
            let invitation = try sent.decoded(as: Components.Schemas.CircleInvitation.self).id
            try await app.runJobs()

            let emails = smtp.received.filter { $0.rcptTos == ["newcomer@example.com"] }
            #expect(emails.count == 1, "\(smtp.received.map(\.subject))")
            let email = try #require(emails.first)
            #expect(email.subject == "Ana invited you to join \"Work <Warriors>\" on FitCircle")
            let (text, html) = (
                try email.part("text/plain"), try email.part("text/html")
            )
            #expect(
                text.contains("Hi there,") && text.contains("No account was made for you")
                    && !text.contains("Email preferences")
            )
            #expect(html.contains("Work &lt;Warriors&gt;") && !html.contains("/api/emails/open/"))
            let link = try #require(text.firstMatch(of: /Join the Circle: (\S+)/)?.output.1)
            #expect(link.hasPrefix("\(FakeSMTP.publicURL)/api/emails/invitation?token="))

            // The page says who invites whom where, and never renders the circle's name as markup.
            let path = String(link.dropFirst(FakeSMTP.publicURL.count))
            let page = try await app.request(.get, path)
            #expect(page.status == .ok)
            #expect(page.text.contains("Ana invited <b>newcomer@example.com</b> to join <b>Work &lt;Warriors&gt;</b>"))
            #expect(page.text.contains("fitcircle://invitations/\(invitation)"))
            #expect(try await app.request(.get, "/api/emails/invitation?token=forged").status == .unprocessableContent)

            // Sent again: the same pending invitation (200, not 201), no second email.
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/\(id)/invite",
                    token: ana,
                    json: ["email": "newcomer@example.com"]
                ).status == .ok
            )
            try await app.runJobs()
            #expect(smtp.received.filter { $0.rcptTos == ["newcomer@example.com"] }.count == 1)

            // Signing up with the address: the invitation is in the inbox, and it lets them in.
            let newcomer = try await app.onboardedUser("newcomer@example.com")
            try await app.runJobs()
            let told = try await app.api(newcomer).getNotificationHistory(query: .init(_type: "circle_invitation")).ok
                .body.json.items
            #expect(
                told.count == 1 && told.first?.body.contains("Ana invited you") == true,
                "\(told)"
            )
            let joined = try await app.request(
                .post,
                "/api/fitcircles/join",
                token: newcomer,
                json: ["invitationId": invitation]
            )
            #expect(joined.status == .ok, "\(joined.text)")
            let closed = try await app.request(.get, path)
            #expect(closed.status == .ok && closed.text.contains("Invitation closed"))
        }
    }

    /// An invitation revoked before its job runs, or to an address that signed up meanwhile, is not emailed.
    @Test(arguments: Backend.available)
    func aRevokedInvitationIsNotEmailed(_ backend: Backend) async throws {
        try await FakeSMTP.withTestApp(backend) { app, smtp in
            let ana = try await app.onboardedUser("ana@example.com")
            let id = try await app.api(ana).createFitCircle(body: .json(.init(name: "Walkers", metric: .steps))).created
                .body.json.id
            let sent = try await app.request(
                .post,
                "/api/fitcircles/\(id)/invite",
                token: ana,
                json: ["email": "gone@example.com"]
            ).decoded(as: Components.Schemas.CircleInvitation.self)
            let invitation = sent.id
            #expect(
                try await app.request(.delete, "/api/fitcircles/\(id)/invitations/\(invitation)", token: ana).status
                    == .noContent
            )
            try await app.runJobs()
            #expect(smtp.received.filter { $0.rcptTos == ["gone@example.com"] }.isEmpty)
        }
    }
}
