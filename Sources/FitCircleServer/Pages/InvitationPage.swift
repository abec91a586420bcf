import FitCircleCore
import FitCircleEngine
import Foundation

/// The page an invitation emailed to an address opens: who invites whom to which circle, and how to
/// accept (sign up with that address, or open it in the app); a lapsed one says so.
enum InvitationPage {
    static func show(_ emailed: Emails.EmailedInvitation) -> String {
        let (inviter, circle) = (HTML.escape(emailed.inviter), HTML.escape(emailed.circle))
        guard emailed.pending else {
            return HTML.page(
                title: "Invitation closed",
                body:
                    "<p>This invitation to join <b>\(circle)</b> has lapsed, was used or was withdrawn. Ask \(inviter) for a new one.</p>"
            )
        }
        let address = HTML.escape(emailed.invitation.email ?? "")
        let until = emailed.lapsesOn.iso
        let open =
            emailed.deepLink.map { #"<p><a class="button" href="\#(HTML.escape($0))">Open it in the app</a></p>"# }
            ?? ""
        return HTML.page(
            title: "You're invited",
            body: """
                <p>\(inviter) invited <b>\(address)</b> to join <b>\(circle)</b>, a circle where friends keep each other moving.</p>
                <p>Sign up in the app with this address: the invitation waits in your inbox until \(until).</p>
                \(open)
                """
        )
    }
}
