import FitCircleCore
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Every answer of an operation the document deprecates says so (RFC 9745): `Deprecation: @<the day it was
/// deprecated, as seconds since 1970>` and a `Link` to its entry in the reference, which names what replaces
/// it. A client's logs show it long before the operation goes (the document's versions paragraph says when).
struct DeprecationMiddleware: ServerMiddleware {
    /// The `Deprecation` and `Link` values by operation id.
    private let headers: [String: (deprecation: String, link: String)]

    init(deprecated: [String: String]) {
        self.headers = deprecated.reduce(into: [:]) { headers, entry in
            let (operation, day) = entry
            let instant = LocalDate(iso: day).map { $0.start(in: .gmt).timeIntervalSince1970 } ?? 0
            headers[operation] = ("@\(Int(instant))", "</docs#\(operation)>; rel=\"deprecation\"; type=\"text/html\"")
        }
    }

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var (response, body) = try await next(request, body, metadata)
        if let (deprecation, link) = self.headers[operationID] {
            response.headerFields[.deprecation] = deprecation
            response.headerFields.append(HTTPField(name: .link, value: link))
        }
        return (response, body)
    }
}
