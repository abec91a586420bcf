public import FitCircleCore
import Foundation
public import NIOCore
import NIOExtras
import NIOPosix
public import NIOSSL

/// Mail submission over SMTP (RFC 5321, 6409): TLS from the first byte (port 465) or upgraded with
/// STARTTLS (port 587) before any credential is sent, AUTH PLAIN or LOGIN as the server offers, one
/// connection per message. The server's reply to the message (or the first command it refuses) is the
/// outcome: 2xx delivered, 4xx retryable, 5xx permanent.
public struct SMTPTransport: EmailTransport {
    public enum Security: String, Sendable {
        /// TLS from the start (SMTPS, usually port 465).
        case implicitTLS = "tls"
        /// Plain text, upgraded with STARTTLS; a server that does not offer it gets nothing (port 587).
        case startTLS = "starttls"
        /// No TLS at all: only for a relay on the same host.
        case none
    }

    public struct Settings: Sendable {
        public var host: String
        public var port: Int
        public var security: Security
        public var username: String?
        public var password: String?
        /// The name this server gives in EHLO.
        public var clientName: String
        public var tls: TLSConfiguration

        public init(
            host: String,
            port: Int,
            security: Security,
            username: String? = nil,
            password: String? = nil,
            clientName: String = "localhost",
            tls: TLSConfiguration = .makeClientConfiguration()
        ) {
            self.host = host
            self.port = port
            self.security = security
            self.username = username
            self.password = password
            self.clientName = clientName
            self.tls = tls
        }
    }

    private let settings: Settings
    private let context: NIOSSLContext
    private let clock: WallClock
    private let timeout: TimeAmount = .seconds(30)

    public init(settings: Settings, clock: WallClock) throws {
        self.settings = settings
        self.context = try NIOSSLContext(configuration: settings.tls)
        self.clock = clock
    }

    public func send(_ message: EmailMessage) async -> DeliveryAttempt {
        let started = ContinuousClock.now
        func attempt(_ outcome: DeliveryOutcome, _ status: Int?) -> DeliveryAttempt {
            DeliveryAttempt(
                provider: "smtp",
                outcome: outcome,
                status: status,
                latencyMilliseconds: (ContinuousClock.now - started).wholeMilliseconds
            )
        }
        // An address goes into the conversation as is: one that could end a command never does.
        for address in [message.from.address, message.to.address] where !Self.isSafe(address) {
            return attempt(.permanent(reason: "the address \(address.debugDescription) cannot be given to SMTP"), nil)
        }
        do {
            let reply = try await self.submit(message)
            return attempt(ProviderAnswer.smtp(code: reply.code, text: reply.text), reply.code)
        } catch let refusal as Refusal {
            return attempt(.permanent(reason: refusal.reason), nil)
        } catch {
            return attempt(.retryable(reason: "no answer: \(error)"), nil)
        }
    }

    /// A mailbox SMTP can carry in `<…>`: printable, no spaces or angle brackets, one `@`.
    static func isSafe(_ address: String) -> Bool {
        address.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && $0 != "<" && $0 != ">" }
            && address.split(separator: "@", omittingEmptySubsequences: false).count == 2
    }

    /// What this server will not do with this mail server (no STARTTLS, no AUTH it speaks): permanent
    /// until someone changes the configuration.
    struct Refusal: Error {
        var reason: String
    }

    struct NoReply: Error, CustomStringConvertible {
        var seconds: Int64
        var description: String { "the conversation did not finish within \(self.seconds) s" }
    }

    /// Runs the conversation; answers the reply to the message, or the first refusal.
    private func submit(_ message: EmailMessage) async throws -> SMTPReply {
        let (settings, context) = (self.settings, self.context)
        // SNI names hosts, never addresses.
        let sniName = (try? SocketAddress(ipAddress: settings.host, port: 0)) == nil ? settings.host : nil
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: settings.host, port: settings.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if settings.security == .implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: context, serverHostname: sniName)
                        )
                    }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await withThrowingTaskGroup(of: SMTPReply.self) { group in
            group.addTask {
                try await channel.executeThenClose { inbound, outbound in
                    var session = SMTPSession(lines: inbound.makeAsyncIterator(), outbound: outbound)
                    return try await session.run(message, settings: settings, date: self.clock.now()) {
                        try await channel.channel.pipeline.addHandler(
                            NIOSSLClientHandler(context: context, serverHostname: sniName),
                            position: .first
                        )
                    }
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(self.timeout.nanoseconds / 1_000_000_000))
                channel.channel.close(promise: nil)
                throw NoReply(seconds: self.timeout.nanoseconds / 1_000_000_000)
            }
            // Both tasks end in a reply or an error, so the first to end answers.
            guard let reply = try await group.next() else {
                throw NoReply(seconds: self.timeout.nanoseconds / 1_000_000_000)
            }
            group.cancelAll()
            return reply
        }
    }
}

/// A reply: its code and its text (the lines of a multi-line reply joined).
struct SMTPReply: Sendable {
    var code: Int
    var text: String
    var lines: [String]
}

/// One SMTP conversation on an open channel.
struct SMTPSession {
    var lines: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    mutating func run(
        _ message: EmailMessage,
        settings: SMTPTransport.Settings,
        date: Date,
        startTLS: () async throws -> Void
    ) async throws -> SMTPReply {
        var reply = try await self.reply()
        guard reply.code == 220 else { return reply }
        reply = try await self.command("EHLO \(settings.clientName)")
        guard reply.code == 250 else { return reply }
        if settings.security == .startTLS {
            guard Self.offers("STARTTLS", in: reply) else {
                throw SMTPTransport.Refusal(reason: "the server does not offer STARTTLS")
            }
            reply = try await self.command("STARTTLS")
            guard reply.code == 220 else { return reply }
            try await startTLS()
            reply = try await self.command("EHLO \(settings.clientName)")
            guard reply.code == 250 else { return reply }
        }
        if let username = settings.username, let password = settings.password {
            let mechanisms = Self.authMechanisms(in: reply)
            if mechanisms.contains("PLAIN") {
                reply = try await self.command(
                    "AUTH PLAIN \(Data("\0\(username)\0\(password)".utf8).base64EncodedString())"
                )
            } else if mechanisms.contains("LOGIN") {
                reply = try await self.command("AUTH LOGIN")
                guard reply.code == 334 else { return reply }
                reply = try await self.command(Data(username.utf8).base64EncodedString())
                guard reply.code == 334 else { return reply }
                reply = try await self.command(Data(password.utf8).base64EncodedString())
            } else {
                throw SMTPTransport.Refusal(
                    reason: "the server offers no AUTH mechanism this server speaks (PLAIN, LOGIN)"
                )
            }
            guard reply.code == 235 else { return reply }
        }
        reply = try await self.command("MAIL FROM:<\(message.from.address)>")
        guard reply.code == 250 else { return reply }
        reply = try await self.command("RCPT TO:<\(message.to.address)>")
        guard reply.code == 250 || reply.code == 251 else { return reply }
        reply = try await self.command("DATA")
        guard reply.code == 354 else { return reply }
        let text = MIMEMessage.render(message, date: date)
        try await self.outbound.write(ByteBuffer(string: Self.dotStuffed(text) + ".\r\n"))
        let accepted = try await self.reply()
        _ = try? await self.command("QUIT")
        return accepted
    }

    private mutating func command(_ line: String) async throws -> SMTPReply {
        try await self.outbound.write(ByteBuffer(string: line + "\r\n"))
        return try await self.reply()
    }

    /// Reads one reply, multi-line (`250-…`) or not (`250 …`).
    private mutating func reply() async throws -> SMTPReply {
        var lines: [String] = []
        while let buffer = try await self.lines.next() {
            let line = String(buffer: buffer)
            lines.append(String(line.dropFirst(4)))
            let bytes = Array(line.utf8)
            guard bytes.count >= 3, let code = Int(String(line.prefix(3))) else {
                throw ChannelError.inappropriateOperationForState
            }
            if bytes.count == 3 || bytes[3] != UInt8(ascii: "-") {
                return SMTPReply(code: code, text: lines.joined(separator: " "), lines: lines)
            }
        }
        throw ChannelError.eof
    }

    static func offers(_ keyword: String, in reply: SMTPReply) -> Bool {
        reply.lines.contains { $0.uppercased() == keyword || $0.uppercased().hasPrefix(keyword + " ") }
    }

    static func authMechanisms(in reply: SMTPReply) -> Set<String> {
        Set(
            reply.lines.filter { $0.uppercased().hasPrefix("AUTH ") }.flatMap {
                $0.uppercased().split(separator: " ").dropFirst().map(String.init)
            }
        )
    }

    /// The message as DATA carries it: CRLF line ends, a line that starts with "." gets another (RFC 5321 §4.5.2).
    static func dotStuffed(_ text: String) -> String {
        var stuffed = text.replacingOccurrences(of: "\r\n.", with: "\r\n..")
        if stuffed.hasPrefix(".") { stuffed = "." + stuffed }
        if !stuffed.hasSuffix("\r\n") { stuffed += "\r\n" }
        return stuffed
    }
}
