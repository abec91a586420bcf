public import Foundation

/// An `EmailMessage` as RFC 5322 text: 7-bit, CRLF line ends, lines under 78 characters; non-ASCII header
/// text as RFC 2047 encoded words (UTF-8, base64); `multipart/alternative` with the plain-text part first
/// and the HTML part last (the one a mail client prefers), each base64.
public enum MIMEMessage {
    public static func render(_ message: EmailMessage, date: Date, boundary: String = "fitcircle-\(UUID().uuidString)")
        -> String
    {
        var lines: [String] = [
            "From: \(Self.mailbox(message.from))",
            "To: \(Self.mailbox(message.to))",
            "Subject: \(Self.headerText(message.subject))",
            "Date: \(Self.date(date))",
            "Message-ID: \(message.messageID)",
        ]
        lines += message.headers.map { "\($0.name): \($0.value)" }
        lines += [
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
            "",
            "--\(boundary)",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: base64",
            "",
            Self.base64Lines(message.text),
            "--\(boundary)",
            "Content-Type: text/html; charset=utf-8",
            "Content-Transfer-Encoding: base64",
            "",
            Self.base64Lines(message.html),
            "--\(boundary)--",
            "",
        ]
        return lines.joined(separator: "\r\n")
    }

    /// `"Name" <address>`, the name encoded when it is not plain ASCII.
    static func mailbox(_ mailbox: Mailbox) -> String {
        guard let name = mailbox.name, !name.isEmpty else { return "<\(mailbox.address)>" }
        let isPlain = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || " .-_'".contains($0)) }
        return isPlain ? "\"\(name)\" <\(mailbox.address)>" : "\(Self.encodedWords(name)) <\(mailbox.address)>"
    }

    /// Header text as is when printable ASCII, else encoded words.
    static func headerText(_ text: String) -> String {
        text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) ? text : Self.encodedWords(text)
    }

    /// RFC 2047 `=?utf-8?B?…?=` words of at most 75 characters each, split between whole characters,
    /// folded onto continuation lines.
    static func encodedWords(_ text: String) -> String {
        var words: [String] = []
        var chunk = ""
        for character in text {
            // 45 bytes of UTF-8 make 60 characters of base64: 72 with `=?utf-8?B?` and `?=`.
            if chunk.utf8.count + character.utf8.count > 45 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?utf-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }

    /// RFC 5322 date, in UTC.
    static func date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// Base64 in lines of 76 characters (RFC 2045).
    static func base64Lines(_ text: String) -> String {
        Data(text.utf8).base64EncodedString(options: [
            .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
        ])
    }
}
