public import Foundation

/// A mailbox: an address and, optionally, a display name (any script; encoded on the wire).
public struct Mailbox: Equatable, Sendable {
    public var address: String
    public var name: String?

    public init(_ address: String, name: String? = nil) {
        self.address = address
        self.name = name
    }
}

/// One email to one person: both an HTML and a plain-text part, and extra headers (`List-Unsubscribe`…).
public struct EmailMessage: Sendable {
    public var from: Mailbox
    public var to: Mailbox
    public var subject: String
    public var html: String
    public var text: String
    /// Headers beyond From, To, Subject, Date, Message-ID and the MIME ones, in order.
    public var headers: [(name: String, value: String)]
    /// `<id@domain>`, unique per message; kept in the email log so a bounce or a complaint can be matched.
    public var messageID: String

    public init(
        from: Mailbox,
        to: Mailbox,
        subject: String,
        html: String,
        text: String,
        headers: [(name: String, value: String)] = [],
        messageID: String
    ) {
        self.from = from
        self.to = to
        self.subject = subject
        self.html = html
        self.text = text
        self.headers = headers
        self.messageID = messageID
    }

    /// A new `Message-ID` on the sender's domain.
    public static func newMessageID(domain: String) -> String {
        "<\(UUID().uuidString.lowercased())@\(domain)>"
    }
}
