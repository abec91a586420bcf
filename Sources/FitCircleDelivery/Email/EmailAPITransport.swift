public import AsyncHTTPClient
public import FitCircleCore
import Foundation
import NIOCore
import NIOHTTP1

/// An HTTP email API in the style of Resend: `POST {base}/emails` with a bearer API key and the message as
/// JSON (`from`, `to`, `subject`, `html`, `text`, `headers`). 2xx delivered; 408, 429 and 5xx retried.
public struct EmailAPITransport: EmailTransport {
    private let url: String
    private let apiKey: String
    private let call: ProviderCall
    private let clock: WallClock

    /// - Parameter baseURL: `https://api.resend.com` for Resend; a fake provider's in tests.
    public init(baseURL: String = "https://api.resend.com", apiKey: String, http: HTTPClient, clock: WallClock) {
        self.url = "\(baseURL)/emails"
        self.apiKey = apiKey
        self.call = ProviderCall(provider: "email_api", http: http, timeout: .seconds(15))
        self.clock = clock
    }

    public func send(_ message: EmailMessage) async -> DeliveryAttempt {
        await self.call.attempt {
            var request = HTTPClientRequest(url: self.url)
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(self.apiKey)")
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(Self.body(message))))
            return request
        } classify: { response in
            ProviderAnswer.http(
                status: response.status,
                retryAfter: ProviderAnswer.retryAfter(
                    response.headers.first(name: "Retry-After"),
                    now: self.clock.now()
                )
            )
        }
    }

    struct Body: Encodable, Equatable {
        var from: String
        var to: [String]
        var subject: String
        var html: String
        var text: String
        var headers: [String: String]
    }

    static func body(_ message: EmailMessage) -> Body {
        var headers = Dictionary(message.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        headers["Message-ID"] = message.messageID
        return Body(
            from: MIMEMessage.mailbox(message.from),
            to: [MIMEMessage.mailbox(message.to)],
            subject: message.subject,
            html: message.html,
            text: message.text,
            headers: headers
        )
    }
}
