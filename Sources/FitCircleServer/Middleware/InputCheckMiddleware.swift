import FitCircleCore
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// When the generated decoder refuses a request's JSON body, query or path, the answer names every field the
/// document says is wrong and what each must be (`InputSchemas`, the API review's D7 and I32): the decoder
/// stops at the first error and describes it in Swift's terms. A request the decoder reads costs one copy
/// of its body (bounded by `RequestBodyMiddleware`) and a walk of the body `RequestBodyMiddleware` parsed for
/// members the document does not name, which are refused (`unknownFields`). An empty body is no body: an
/// operation whose body is optional takes it, one whose body is required refuses it (400).
struct InputCheckMiddleware: ServerMiddleware {
    let schemas: InputSchemas

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var (body, bytes) = (body, Data?.none)
        if let given = body, let inputs = self.schemas.operations[operationID], inputs.body != nil {
            let data = try await Data(collecting: given, upTo: .max)
            if data.isEmpty {
                // No body at all is what an optional one may be (`POST /api/competitions/{id}/join`); the
                // generated decoder would read nothing as broken JSON.
                guard !inputs.bodyRequired else {
                    throw ProblemDocument.badRequest("The body is empty; this operation expects a JSON document.")
                }
                body = nil
            } else {
                (body, bytes) = (HTTPBody(data), data)
                if let document = ParsedBody.current?.document {
                    let unknown = self.schemas.unknownFields(ofBody: document, operationID: operationID)
                    if !unknown.isEmpty {
                        let wrong = self.schemas.violations(ofBody: data, operationID: operationID)
                        throw ProblemDocument.validationFailed(
                            (unknown + wrong).sorted { $0.field < $1.field }
                        )
                    }
                }
            }
        }
        do {
            return try await next(request, body, metadata)
        } catch let error as ServerError where error.underlyingError is DecodingError {
            var found = bytes.map { self.schemas.violations(ofBody: $0, operationID: operationID) } ?? []
            if let path = request.path, let items = URLComponents(string: path)?.queryItems {
                found += self.schemas.violations(ofQuery: items, operationID: operationID)
            }
            // A path names a resource or an action: what it cannot name is the request's address, a 400.
            let path = self.schemas.violations(ofPath: metadata.pathParameters, operationID: operationID)
            if found.isEmpty, let first = path.first { throw ProblemDocument.badQuery(first) }
            guard !found.isEmpty else { throw error }
            // What the decoder found stays when the document's rules missed it.
            let own = ProblemDocument.from(error)?.errors ?? []
            found += own.filter { decoded in decoded.field != "body" && !found.contains { $0.field == decoded.field } }
            throw ProblemDocument.validationFailed(found)
        }
    }
}
