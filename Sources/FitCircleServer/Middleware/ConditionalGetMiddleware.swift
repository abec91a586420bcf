import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Conditional reads (issue 42) of the answers an app polls: boards, the friends' feed, a person's page,
/// goals and the configuration. Each answer carries its `ETag` (`EntityTag`, of its bytes as this caller
/// gets them) with `Cache-Control: private, no-cache`, so a browser keeps it and asks again with
/// `If-None-Match`; an unchanged answer is then a `304` without a body. The operations are those whose
/// `openapi.yaml` entry declares the `304`, read from the document itself (`RouteTable`).
struct ConditionalGetMiddleware: ServerMiddleware {
    let operations: Set<String>

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, metadata)
        guard request.method == .get, self.operations.contains(operationID), response.status == .ok, let responseBody
        else {
            return (response, responseBody)
        }
        // These answers are small JSON documents, already bounded by their pages.
        let bytes = try await Data(collecting: responseBody, upTo: .max)
        let tag = EntityTag.of(bytes)
        var answered = response
        answered.headerFields[.eTag] = tag
        answered.headerFields[.cacheControl] = "private, no-cache"
        guard EntityTag.matches(request.headerFields[.ifNoneMatch], tag) else { return (answered, HTTPBody(bytes)) }
        answered.status = .notModified
        answered.headerFields[.contentType] = nil
        answered.headerFields[.contentLength] = nil
        return (answered, nil)
    }
}
