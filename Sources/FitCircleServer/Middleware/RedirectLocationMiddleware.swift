import Foundation
import HTTPTypes
import Hummingbird

/// The generated server writes header values percent-encoded (OpenAPIRuntime's URI "simple" style), which
/// would turn a redirect to `fitcircle://digest` into `Location: fitcircle%3A%2F%2Fdigest`. Decoding once
/// is the exact inverse (a `%` of the URL itself was written `%25`).
struct RedirectLocationMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        if let location = response.headers[.location], let decoded = location.removingPercentEncoding {
            response.headers[.location] = decoded
        }
        return response
    }
}
