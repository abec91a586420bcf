public import FitCircleDelivery

/// Who emails come from and where their links lead.
public struct EmailSettings: Sendable {
    public var from: Mailbox
    /// This server as the world reaches it (`https://fitcircle.example.com`): unsubscribe, tracking links.
    public var publicURL: String
    /// Where `mailto:` unsubscribe requests go (`List-Unsubscribe`).
    public var unsubscribeMailbox: String
    /// Where the emails a user cannot unsubscribe from (welcome, invitations, milestones) send them instead.
    public var preferencesURL: String

    public init(
        from: Mailbox,
        publicURL: String,
        unsubscribeMailbox: String? = nil,
        preferencesURL: String = "fitcircle://settings/notifications"
    ) {
        self.from = from
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        self.unsubscribeMailbox = unsubscribeMailbox ?? "unsubscribe@\(Self.domain(of: from))"
        self.preferencesURL = preferencesURL
    }

    /// The sender's domain: the right-hand side of `Message-ID`s.
    var domain: String { Self.domain(of: self.from) }

    private static func domain(of mailbox: Mailbox) -> String {
        mailbox.address.split(separator: "@").last.map(String.init) ?? "localhost"
    }
}

/// The email channel: a transport and what the mail says about its sender.
public struct EmailChannel: Sendable {
    public var transport: any EmailTransport
    public var settings: EmailSettings

    public init(transport: any EmailTransport, settings: EmailSettings) {
        self.transport = transport
        self.settings = settings
    }
}
