import HTTPTypes
import Hummingbird

/// Every HTML page the server writes carries the web app's page headers (Content-Security-Policy,
/// `X-Frame-Options`, `nosniff`, no caching) unless it set its own: the pages answered through the OpenAPI
/// operations (an emailed invitation, one-click unsubscribing) once went without them.
struct PageHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        guard response.headers[.contentType]?.lowercased().hasPrefix("text/html") == true else { return response }
        for field in WebRoutes.pageHeaders where response.headers[field.name] == nil {
            response.headers.append(field)
        }
        return response
    }
}
