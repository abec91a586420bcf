import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OpenAPIRuntime

/// Turns every error into an `application/problem+json` response: documented problems as they are,
/// an unknown route on a known path into 405, anything else into a 500 whose detail goes to the log only.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let (error, counted) = CountedFailure.split(error)
            var problem: ProblemDocument
            if let known = ProblemDocument.from(error) {
                problem = known
            } else {
                context.logger.error("Request failed", metadata: Self.redacted(error))
                problem = .internalError
            }
            var headers: HTTPFields = [:]
            // Only the router's own 404 (no route for this method) becomes 405; a use case's 404 stays.
            if error is HTTPError, problem.status == 404, let allowed = self.routes.methods(forPath: request.uri.path) {
                problem = .methodNotAllowed(request.method.rawValue, allowed: allowed)
                headers[.allow] = allowed.joined(separator: ", ")
            } else if error is HTTPError, problem.status == 404 {
                problem = .notFound("There is no \(request.method.rawValue) \(request.uri.path).")
            }
            if problem.status == 401 {
                headers[.wwwAuthenticate] = "Bearer"
            }
            if let seconds = problem.retryAfter {
                headers[.retryAfter] = "\(seconds)"
            }
            headers.append(contentsOf: problem.headers)
            headers.append(contentsOf: counted)
            return Self.response(problem, headers: headers)
        }
    }

    /// What a failure's log line may hold: the operation and the underlying error, never the request
    /// (OpenAPIRuntime's `ServerError` describes the request's header fields: `Authorization`, cookies).
    static func redacted(_ error: any Error) -> Logger.Metadata {
        guard let error = error as? ServerError else { return ["error": "\(String(reflecting: error))"] }
        return ["operation": "\(error.operationID)", "error": "\(String(reflecting: error.underlyingError))"]
    }

    static func response(_ problem: ProblemDocument, headers: HTTPFields = [:]) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(problem)) ?? Data()
        var headers = headers
        headers[.contentType] = ProblemDocument.contentType
        return Response(
            status: .init(code: problem.status),
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}
