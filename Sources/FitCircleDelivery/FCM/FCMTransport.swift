public import AsyncHTTPClient
public import FitCircleCore
import Foundation
import NIOCore
import NIOHTTP1

/// Firebase Cloud Messaging, HTTP v1: `POST {base}/v1/projects/{project}/messages:send` with a service
/// account's OAuth access token, the payload of spec 000 (`notification`, `data`, `android.priority: high`).
public final class FCMTransport: Sendable {
    private let account: FCMServiceAccount
    private let baseURL: String
    private let call: ProviderCall
    private let tokens: GoogleAccessTokens
    private let clock: WallClock

    /// - Parameter baseURL: `https://fcm.googleapis.com` in production; a fake provider's in tests.
    public init(
        account: FCMServiceAccount,
        baseURL: String = "https://fcm.googleapis.com",
        http: HTTPClient,
        clock: WallClock
    ) async throws {
        self.account = account
        self.baseURL = baseURL
        self.call = ProviderCall(provider: "fcm", http: http, timeout: .seconds(10))
        self.tokens = try await GoogleAccessTokens(account: account, call: self.call, clock: clock)
        self.clock = clock
    }

    /// Sends `message` to one registration token; a refused access token is replaced and the message
    /// tried once more.
    public func send(_ message: PushMessage, to token: String) async -> DeliveryAttempt {
        let first = await self.attempt(message, to: token, refreshing: false)
        guard first.status == 401 else { return first }
        return await self.attempt(message, to: token, refreshing: true)
    }

    private func attempt(_ message: PushMessage, to token: String, refreshing: Bool) async -> DeliveryAttempt {
        await self.call.attempt {
            let access = refreshing ? try await self.tokens.refreshed() : try await self.tokens.token()
            var request = HTTPClientRequest(url: "\(self.baseURL)/v1/projects/\(self.account.projectID)/messages:send")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(access)")
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(Self.body(message, to: token))))
            return request
        } classify: { response in
            ProviderAnswer.fcm(
                status: response.status,
                errorCode: Self.errorCode(in: response.body),
                retryAfter: ProviderAnswer.retryAfter(
                    response.headers.first(name: "Retry-After"),
                    now: self.clock.now()
                )
            )
        }
    }

    struct Body: Encodable, Equatable {
        struct Message: Encodable, Equatable {
            var token: String
            var notification: [String: String]
            var data: [String: String]
            var android: [String: String]
        }
        var message: Message
    }

    static func body(_ message: PushMessage, to token: String) -> Body {
        Body(
            message: Body.Message(
                token: token,
                notification: ["title": message.title, "body": message.body],
                data: message.data,
                android: ["priority": "high"]
            )
        )
    }

    /// The `errorCode` of the error's `FcmError` detail, else its `status` (`{"error": {"status", "details"}}`).
    static func errorCode(in body: Data) -> String? {
        struct Failure: Decodable {
            struct Error: Decodable {
                struct Detail: Decodable { var errorCode: String? }
                var status: String?
                var details: [Detail]?
            }
            var error: Error
        }
        guard let failure = try? JSONDecoder().decode(Failure.self, from: body) else { return nil }
        return failure.error.details?.compactMap(\.errorCode).first ?? failure.error.status
    }
}
