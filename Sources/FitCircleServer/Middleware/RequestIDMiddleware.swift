import FitCircleEngine
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id (the client's `X-Request-Id` when it is sane), echoes it in the response
/// and puts it in the request's log metadata.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let id = request.headers[.requestID].flatMap(Self.sanitized) ?? IDGenerator.randomUUID()
        var context = context
        context.logger[metadataKey: "fitcircle.request.id"] = .string(id)
        var response = try await next(request, context)
        response.headers[.requestID] = id
        return response
    }

    /// Up to 128 characters of letters, digits, `-`, `_` and `.`; anything else is replaced by a fresh id.
    static func sanitized(_ value: String) -> String? {
        guard (1...128).contains(value.count),
            value.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0))
            })
        else { return nil }
        return value
    }
}
