import FitCircleCore
import FitCircleDelivery
import FitCircleTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing

/// Email handed to a real SMTP server on loopback (aiosmtpd, whose Python email parser reads the MIME) and
/// to an HTTP email API in Resend's style (issue 8).
struct EmailTransportTests {
    static let clock = WallClock.fixed(Date(timeIntervalSince1970: 1_795_000_000))

    static func message(to address: String = "zoe@example.com") -> EmailMessage {
        EmailMessage(
            from: Mailbox("hello@fitcircle.test", name: "FitCircle"),
            to: Mailbox(address, name: "Zoë Ångström"),
            subject: "🔥 Your 14-day streak is at risk — don't lose it",
            html: "<p>Hi Zoë,</p><p>Your <b>14-day</b> streak is waiting.</p>",
            text: "Hi Zoë,\r\n.A line that starts with a dot\r\nYour 14-day streak is waiting.\r\n",
            headers: [
                (
                    "List-Unsubscribe",
                    "<https://fitcircle.test/api/emails/unsubscribe?token=abc>, <mailto:unsubscribe@fitcircle.test?subject=abc>"
                ),
                ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
            ],
            messageID: EmailMessage.newMessageID(domain: "fitcircle.test")
        )
    }

    @Test(arguments: [SMTPTransport.Security.startTLS, .implicitTLS])
    func aMessageGoesOverTLSAuthenticatedAsWellFormedMultipartMIME(_ security: SMTPTransport.Security) async throws {
        try await FakeSMTP.run(security: security) { smtp in
            let message = Self.message()
            let attempt = try await SMTPTransport(settings: smtp.settings(), clock: Self.clock).send(message)
            #expect(attempt.outcome == .delivered && attempt.status == 250 && attempt.provider == "smtp", "\(attempt)")
            let received = try #require(smtp.received.first)
            #expect(received.tls && received.authenticated)
            #expect(received.mailFrom == "hello@fitcircle.test" && received.rcptTos == ["zoe@example.com"])
            #expect(received.subject == message.subject)
            #expect(
                received.to == "Zoë Ångström <zoe@example.com>" && received.from == "FitCircle <hello@fitcircle.test>"
            )
            #expect(received.messageId == message.messageID)
            #expect(received.date == "Wed, 18 Nov 2026 11:06:40 +0000")
            #expect(received.contentType == "multipart/alternative")
            #expect(received.parts.map(\.contentType) == ["text/plain", "text/html"])
            #expect(
                received.parts.first?.content.replacingOccurrences(of: "\r\n", with: "\n")
                    == message.text.replacingOccurrences(of: "\r\n", with: "\n")
            )
            #expect(received.parts.last?.content.trimmingCharacters(in: .newlines) == message.html)
            #expect(received.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click")
            #expect(received.headers["List-Unsubscribe"]?.contains("mailto:unsubscribe@fitcircle.test") == true)
            #expect(received.defects.isEmpty, "\(received.defects)")
            // 7-bit on the wire, no line over 998 characters.
            #expect(
                received.raw.allSatisfy(\.isASCII)
                    && received.raw.split(separator: "\r\n").allSatisfy { $0.count <= 998 }
            )
        }
    }

    @Test func aServerOfferingOnlyAuthLoginGetsLogin() async throws {
        try await FakeSMTP.run(loginOnly: true) { smtp in
            let attempt = try await SMTPTransport(settings: smtp.settings(), clock: Self.clock).send(Self.message())
            #expect(attempt.outcome == .delivered, "\(attempt)")
            #expect(smtp.received.first?.authenticated == true)
        }
    }

    /// An address that could end an SMTP command (a line break, `>`) never reaches the server.
    @Test func anAddressThatCouldInjectCommandsIsRefusedBeforeConnecting() async throws {
        try await FakeSMTP.run { smtp in
            let transport = try SMTPTransport(settings: smtp.settings(), clock: Self.clock)
            for address in [
                "zoe@example.com>\r\nRCPT TO:<mallory@example.com", "zoe@example.com\r\nDATA", "two words@example.com",
            ] {
                let attempt = await transport.send(Self.message(to: address))
                guard case .permanent = attempt.outcome else {
                    Issue.record("\(address): \(attempt)")
                    continue
                }
            }
            #expect(smtp.received.isEmpty)
        }
    }

    @Test func aRefusedLoginIsPermanentAndNothingIsSent() async throws {
        try await FakeSMTP.run { smtp in
            let attempt = try await SMTPTransport(settings: smtp.settings(password: "wrong"), clock: Self.clock).send(
                Self.message()
            )
            #expect(attempt.status == 535, "\(attempt)")
            guard case .permanent = attempt.outcome else {
                Issue.record("\(attempt)")
                return
            }
            #expect(smtp.received.isEmpty)
        }
    }

    @Test func aRefusedRecipientIsPermanentAndATemporaryFailureRetryable() async throws {
        try await FakeSMTP.run { smtp in
            let transport = try SMTPTransport(settings: smtp.settings(), clock: Self.clock)
            let bounced = await transport.send(Self.message(to: "bounce@example.com"))
            #expect(bounced.status == 550)
            guard case .permanent(let reason) = bounced.outcome else {
                Issue.record("\(bounced)")
                return
            }
            #expect(reason.hasPrefix("550"))
            let later = await transport.send(Self.message(to: "later@example.com"))
            #expect(later.status == 451)
            guard case .retryable = later.outcome else {
                Issue.record("\(later)")
                return
            }
            #expect(smtp.received.isEmpty)
        }
    }

    /// Credentials never go in the clear: a server that offers no STARTTLS gets nothing.
    @Test func aServerWithoutSTARTTLSIsRefusedBeforeAnyCredential() async throws {
        try await FakeSMTP.run(security: .none) { smtp in
            var settings = smtp.settings()
            settings.security = .startTLS
            let attempt = try await SMTPTransport(settings: settings, clock: Self.clock).send(Self.message())
            #expect(attempt.outcome == .permanent(reason: "the server does not offer STARTTLS"))
            #expect(smtp.received.isEmpty)
        }
    }

    @Test func anEmailAPIGetsTheMessageAsJSONWithTheKeyAndIsRetriedOn429() async throws {
        let received = Mutex<[(authorization: String?, body: Data)]>([])
        let answers = Mutex<[HTTPResponse.Status]>([.tooManyRequests])
        let router = Router()
        router.post("/emails") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            received.withLock { $0.append((request.headers[.authorization], Data(body.readableBytesView))) }
            let status = answers.withLock { $0.isEmpty ? .ok : $0.removeFirst() }
            var response = Response(
                status: status,
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"id":"re_123"}"#))
            )
            if status == .tooManyRequests { response.headers[.retryAfter] = "30" }
            return response
        }
        try await Application(router: router, logger: Logger(label: "fake-email-api")).test(.live) { client in
            let transport = EmailAPITransport(
                baseURL: "http://127.0.0.1:\(client.port!)",
                apiKey: "re_test_key",
                http: .shared,
                clock: Self.clock
            )
            let message = Self.message()
            #expect(await transport.send(message).outcome == .retryable(reason: "HTTP 429", after: 30))
            let sent = await transport.send(message)
            #expect(sent.outcome == .delivered && sent.provider == "email_api" && sent.status == 200)
            let (authorization, body) = try #require(received.withLock { $0.last })
            #expect(authorization == "Bearer re_test_key")
            let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            #expect(
                json["subject"] as? String == message.subject && json["html"] as? String == message.html
                    && json["text"] as? String == message.text
            )
            #expect(json["from"] as? String == "\"FitCircle\" <hello@fitcircle.test>")
            #expect((json["to"] as? [String])?.first?.hasSuffix("<zoe@example.com>") == true)
            let headers = try #require(json["headers"] as? [String: String])
            #expect(
                headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
                    && headers["Message-ID"] == message.messageID
            )
        }
    }
}
