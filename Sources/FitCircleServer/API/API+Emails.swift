import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation
import OpenAPIRuntime

extension API {
    func getEmailPreferences(_ input: Operations.GetEmailPreferences.Input) async throws
        -> Operations.GetEmailPreferences.Output
    {
        let preferences = try await self.engine.emails.preferences(of: try RequestCaller.required().userID)
        return .ok(.init(body: .json(.init(preferences, catalog: self.engine.notifications.catalog))))
    }

    func changeEmailPreferences(_ input: Operations.ChangeEmailPreferences.Input) async throws
        -> Operations.ChangeEmailPreferences.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        return .ok(.init(body: .json(try await self.changedEmailPreferences(body))))
    }

    /// Deprecated: it merges as `changeEmailPreferences` does.
    func updateEmailPreferences(_ input: Operations.UpdateEmailPreferences.Input) async throws
        -> Operations.UpdateEmailPreferences.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        return .ok(.init(body: .json(try await self.changedEmailPreferences(body))))
    }

    private func changedEmailPreferences(
        _ body: Components.Schemas.EmailPreferencesInput
    ) async throws -> Components.Schemas.EmailPreferences {
        let change = EmailPreferences.Change(enabled: body.enabled, types: body.types?.additionalProperties ?? [:])
        let saved = try await self.engine.emails.update(change, of: try RequestCaller.required().userID)
        return .init(saved, catalog: self.engine.notifications.catalog)
    }

    func showEmailUnsubscribe(_ input: Operations.ShowEmailUnsubscribe.Input) async throws
        -> Operations.ShowEmailUnsubscribe.Output
    {
        let unsubscription = try await self.engine.emails.unsubscription(token: input.query.token)
        return .ok(.init(body: .html(HTTPBody(UnsubscribePage.confirm(unsubscription, token: input.query.token)))))
    }

    func showEmailedInvitation(_ input: Operations.ShowEmailedInvitation.Input) async throws
        -> Operations.ShowEmailedInvitation.Output
    {
        .ok(
            .init(
                body: .html(
                    HTTPBody(InvitationPage.show(try await self.engine.emails.invitation(token: input.query.token)))
                )
            )
        )
    }

    func unsubscribeFromEmails(_ input: Operations.UnsubscribeFromEmails.Input) async throws
        -> Operations.UnsubscribeFromEmails.Output
    {
        let unsubscription = try await self.engine.emails.unsubscribe(token: input.query.token)
        return .ok(.init(body: .html(HTTPBody(UnsubscribePage.done(unsubscription)))))
    }

    /// A transparent 1×1 GIF.
    static let pixel = Data([
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF,
        0xFF, 0x21, 0xF9, 0x04,
        0x01, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x01, 0x44,
        0x00, 0x3B,
    ])

    func emailOpened(_ input: Operations.EmailOpened.Input) async throws -> Operations.EmailOpened.Output {
        try await self.engine.emails.opened(token: input.path.token)
        return .ok(.init(headers: .init(cacheControl: "no-store"), body: .imageGif(HTTPBody(Self.pixel))))
    }

    func emailLinkClicked(_ input: Operations.EmailLinkClicked.Input) async throws -> Operations.EmailLinkClicked.Output
    {
        .found(.init(headers: .init(location: try await self.engine.emails.click(token: input.path.token))))
    }
}

extension Components.Schemas.EmailPreferences {
    init(_ preferences: EmailPreferences, catalog: NotificationCatalog) {
        self.init(
            enabled: preferences.enabled,
            types: .init(additionalProperties: preferences.types),
            required: EmailPreferences.emailTypes(in: catalog).filter(\.critical).map(\.type)
        )
    }
}
