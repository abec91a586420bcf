import FitCircleCore
import Foundation
import HTTPTypes
import Hummingbird

/// A path or query that decodes to the NUL character (`%00`) names nothing: PostgreSQL's text cannot hold
/// it, so such a value would fail deep in a query. Refused here, once for every route, with a 400 that names
/// the parameter. JSON bodies holding `\u0000` are refused the same way by `RequestBodyMiddleware`.
struct NulCharacterMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        // A NUL comes percent-encoded (the HTTP parser refuses a raw one): a target without `%` holds none,
        // and most requests are read without decoding anything (Foundation's decoding was a tenth of a small read).
        guard let target = request.head.path, target.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == 0 }) else {
            return try await next(request, context)
        }
        if (request.uri.path.removingPercentEncoding ?? request.uri.path).utf8.contains(0) {
            throw ProblemDocument.badRequest("The path must not contain the NUL character (%00).")
        }
        // Values only: a parameter's name is matched against the document's, never read into a query.
        for (name, value) in request.uri.queryParameters where value.utf8.contains(0) {
            throw ProblemDocument.badQuery(
                FieldViolation(field: String(name), reason: "must not contain the NUL character (%00)")
            )
        }
        return try await next(request, context)
    }
}
