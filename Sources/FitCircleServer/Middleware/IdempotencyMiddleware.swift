import FitCircleEngine
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// `Idempotency-Key` on every authenticated POST: the first response is remembered and returned again for
/// the same key and body (marked `Idempotent-Replayed: true`); another body under the same key is refused.
/// A request that fails is not remembered, so retrying it runs it again.
struct IdempotencyMiddleware: ServerMiddleware {
    let idempotency: Idempotency

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard request.method == .post, let key = request.headerFields[.idempotencyKey],
            let caller = RequestCaller.current
        else {
            return try await next(request, body, metadata)
        }
        // RequestBodyMiddleware has already bounded the body's size.
        let bytes = try await Self.collect(body)
        let fingerprint = Data("\(request.method.rawValue) \(request.path ?? "")\n".utf8) + Self.canonical(bytes)
        switch try await self.idempotency.claim(key, for: caller.userID, request: fingerprint) {
        case .replay(let status, let contentType, let stored):
            var headers: HTTPFields = [.idempotentReplayed: "true"]
            if let contentType { headers[.contentType] = contentType }
            return (HTTPResponse(status: .init(code: status), headerFields: headers), HTTPBody(stored))
        case .proceed:
            do {
                let (response, responseBody) = try await next(request, HTTPBody(bytes), metadata)
                let data = try await Self.collect(responseBody)
                if response.status.code < 500 {
                    try await self.idempotency.complete(
                        key,
                        for: caller.userID,
                        statusCode: response.status.code,
                        contentType: response.headerFields[.contentType],
                        body: data
                    )
                } else {
                    try await self.idempotency.release(key, for: caller.userID)
                }
                return (response, HTTPBody(data))
            } catch {
                try? await self.idempotency.release(key, for: caller.userID)
                throw error
            }
        }
    }

    /// The same JSON document however a retrying client orders its keys or spaces its text.
    private static func canonical(_ body: Data) -> Data {
        guard let object = try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed),
            let canonical = try? JSONSerialization.data(
                withJSONObject: object,
                options: [.sortedKeys, .fragmentsAllowed]
            )
        else { return body }
        return canonical
    }

    private static func collect(_ body: HTTPBody?) async throws -> Data {
        guard let body else { return Data() }
        return try await Data(collecting: body, upTo: .max)
    }
}
