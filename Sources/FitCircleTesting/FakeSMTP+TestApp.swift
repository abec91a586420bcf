import FitCircleCore
import FitCircleDelivery
import FitCircleEngine
import Foundation

extension FakeSMTP {
    /// The public address the emails of `withTestApp` link to.
    public static let publicURL = "https://fitcircle.test"

    /// Runs `body` with a test app whose emails go to a fake SMTP server, from FitCircle
    /// <hello@fitcircle.test>, linking to `publicURL`.
    public static func withTestApp(_ backend: Backend, _ body: @Sendable (TestApp, FakeSMTP) async throws -> Void)
        async throws
    {
        try await FakeSMTP.run { smtp in
            let channel = EmailChannel(
                transport: try SMTPTransport(settings: smtp.settings(), clock: .system),
                settings: EmailSettings(
                    from: Mailbox("hello@fitcircle.test", name: "FitCircle"),
                    publicURL: Self.publicURL
                )
            )
            try await FitCircleTesting.withTestApp(backend, transports: Transports(email: channel)) {
                app async throws in
                try await body(app, smtp)
            }
        }
    }

    /// The path of one of the emails' links (`publicURL` taken off).
    public static func path(of url: String) -> String { String(url.dropFirst(Self.publicURL.count)) }

    /// The first link in `text` to `publicURL` followed by `prefix`, whole.
    public static func firstURL(in text: String, starting prefix: String) throws -> String {
        guard let start = text.range(of: "\(Self.publicURL)\(prefix)") else {
            throw TestSetupError("no link to \(prefix) in \(text)")
        }
        return String(text[start.lowerBound...].prefix { !$0.isWhitespace && $0 != "\"" && $0 != ">" })
    }
}

extension FakeSMTP.Received {
    /// The content of its part of `contentType` (`text/plain`, `text/html`).
    public func part(_ contentType: String) throws -> String {
        guard let part = self.parts.first(where: { $0.contentType == contentType }) else {
            throw TestSetupError("no \(contentType) part in \(self.subject)")
        }
        return part.content
    }
}
