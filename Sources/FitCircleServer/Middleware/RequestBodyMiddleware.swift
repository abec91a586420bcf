import FitCircleCore
import Foundation
import Hummingbird
import NIOCore
import OpenAPIRuntime

/// Reads the body once before any handler: refuses more than `limit` bytes with 413 (by `Content-Length`
/// when given, else while it streams in) and a JSON body that does not parse with 400 `malformed-json`.
/// Knowing the body here also sharpens decoding errors: Foundation's decoder reports an empty body, broken
/// JSON and a fraction given for an integer alike, with no field.
struct RequestBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    let limit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > self.limit {
            throw ProblemDocument.payloadTooLarge(limit: self.limit)
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: self.limit)
        } catch is NIOTooManyBytesError {
            throw ProblemDocument.payloadTooLarge(limit: self.limit)
        }
        if body.readableBytes > 0, Self.isJSON(request.headers[.contentType]) {
            do {
                _ = try JSONSerialization.jsonObject(with: Data(body.readableBytesView), options: .fragmentsAllowed)
            } catch {
                throw ProblemDocument.malformedJSON("The body is not valid JSON.")
            }
        }
        do {
            return try await next(request, context)
        } catch let error as ServerError {
            guard case .dataCorrupted(let detail) = error.underlyingError as? DecodingError, detail.codingPath.isEmpty else {
                throw error
            }
            if body.readableBytes == 0 {
                throw ProblemDocument.badRequest("The body is empty; this operation expects a JSON document.")
            }
            // The syntax was checked above, so a number does not fit the field it was given for.
            throw ProblemDocument.validationFailed([
                FieldViolation(field: "body", reason: "a number does not fit its field (a fraction or too large for an integer)")
            ])
        }
    }

    private static func isJSON(_ contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() else {
            return false
        }
        return type == "application/json" || type.hasSuffix("+json")
    }
}
