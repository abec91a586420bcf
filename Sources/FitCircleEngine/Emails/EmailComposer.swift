public import FitCircleCore
public import FitCircleDelivery
import Foundation
import Mustache

/// Writes a notification as an email from the templates in `Templates/` (Mustache): `subject/`, `html/` and
/// `text/` per type, `notification` for a type without its own; both parts share a layout (`html-layout`, `text-layout`). Links: the call
/// to action goes through the click tracker (to the notification's deep link, the only place it can lead),
/// a pixel records the opening; an optional type carries one-click unsubscribe (RFC 8058), a required one
/// (critical: welcome, invitations, milestones) links to the preferences instead.
public struct EmailComposer: Sendable {
    let templates: MustacheLibrary
    let settings: EmailSettings
    let links: EmailLinks

    /// The templates that ship in this module's resources.
    static func bundledTemplates() async throws -> MustacheLibrary {
        guard let directory = Bundle.module.url(forResource: "Templates", withExtension: nil) else {
            throw MissingTemplates()
        }
        return try await MustacheLibrary(directory: directory.path)
    }

    struct MissingTemplates: Error, CustomStringConvertible {
        var description: String { "the email templates are missing from FitCircleEngine's resources" }
    }

    public struct Composed: Sendable {
        public var message: EmailMessage
        /// The destinations of the tracked links, by index.
        public var links: [String]
    }

    public func compose(_ record: NotificationRecord, to user: User) -> Composed {
        let base = self.settings.publicURL
        var context: [String: Any] = record.data
        context["name"] = user.profile.displayName.isEmpty ? "there" : user.profile.displayName
        context["appName"] = self.settings.from.name ?? "FitCircle"
        context["title"] = record.title
        context["body"] = record.body
        context["typeLabel"] = "“\(record.title)” emails"
        // Streak states the templates tell apart (mustache has no comparisons).
        context["freezeUsed"] = record.data["freeze"] == "used"
        context["freezeLeft"] = record.data["freeze"] == "left"
        context["hasStreak"] = (Int(record.data["streak"] ?? "") ?? 0) > 0
        context["preferencesURL"] = self.settings.preferencesURL
        context["pixelURL"] = "\(base)/api/emails/open/\(self.links.token(.open(notification: record.id)))"
        var links: [String] = []
        if let deepLink = record.deepLink {
            links.append(deepLink)
            context["ctaURL"] =
                "\(base)/api/emails/click/\(self.links.token(.click(notification: record.id, index: 0)))"
        }
        var headers: [(name: String, value: String)] = []
        if !record.critical {
            let token = self.links.token(.unsubscribe(user: user.id, type: record.type))
            let url = "\(base)/api/emails/unsubscribe?token=\(token)"
            context["unsubscribeURL"] = url
            headers = [
                (
                    "List-Unsubscribe",
                    "<\(url)>, <mailto:\(self.settings.unsubscribeMailbox)?subject=unsubscribe%20\(token)>"
                ),
                ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
            ]
        }
        let name = self.templates.getTemplate(named: "html/\(record.type)") == nil ? "notification" : record.type
        // The templates write a count's word as the catalog's copy does, `{streak:day|days}`.
        func render(_ template: String) -> String? {
            self.templates.render(context, withTemplate: template).map {
                NotificationType.agreeing($0, with: record.data)
            }
        }
        let subject = (render("subject/\(name)") ?? record.title).trimmingCharacters(in: .whitespacesAndNewlines)
        context["subject"] = subject
        let message = EmailMessage(
            from: self.settings.from,
            to: Mailbox(user.email, name: user.profile.displayName.isEmpty ? nil : user.profile.displayName),
            subject: subject,
            html: render("html/\(name)") ?? record.body,
            text: render("text/\(name)") ?? record.body,
            headers: headers,
            messageID: "<\(record.id.rawValue)@\(self.settings.domain)>"
        )
        return Composed(message: message, links: links)
    }

    /// An invitation to an address with no account (spec 000 F7): the `circle_invitation` templates, the
    /// call to action the invitation's page (what it is and how to accept it), no tracking and no
    /// preferences, which a stranger does not have.
    public func composeInvitation(_ invitation: CircleInvitation, inviter: String, circle: String) -> EmailMessage {
        let context: [String: Any] = [
            "name": "there", "inviter": inviter, "circle": circle, "appName": self.settings.from.name ?? "FitCircle",
            "stranger": true,
            "ctaURL":
                "\(self.settings.publicURL)/api/emails/invitation?token=\(self.links.token(.invitation(invitation.id)))",
        ]
        var withSubject = context
        let subject =
            (self.templates.render(context, withTemplate: "subject/circle_invitation") ?? "You're invited to \(circle)")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        withSubject["subject"] = subject
        let fallback = "\(inviter) invited you to join \(circle)."
        return EmailMessage(
            from: self.settings.from,
            to: Mailbox(invitation.email ?? "", name: nil),
            subject: subject,
            html: self.templates.render(withSubject, withTemplate: "html/circle_invitation") ?? fallback,
            text: self.templates.render(withSubject, withTemplate: "text/circle_invitation") ?? fallback,
            headers: [],
            messageID: "<invitation-\(invitation.id.rawValue)@\(self.settings.domain)>"
        )
    }
}
