import FitCircleCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIRuntime

/// Reads the body once before any handler: refuses more than `limit` bytes with 413 (by `Content-Length`
/// when given, else while it streams in) and a JSON body that does not parse with 400 `malformed-json`.
/// Without a valid access token the limit is `anonymousLimit`: sign-in and the other public requests are
/// small, and nobody unknown makes the node read megabytes (a large `Content-Length` is refused unread).
/// Knowing the body here also sharpens decoding errors: Foundation's decoder reports an empty body, broken
/// JSON and a fraction given for an integer alike, with no field.
struct RequestBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    let limit: Int
    let anonymousLimit: Int
    /// Bodies one address may be sending at once (`limits.perAddressBodies`), and who is sending now: a body
    /// that trickles in holds a place of its address's small share while it arrives, and none after.
    let perAddress: Int
    let sending: OpenPerAddress
    /// Whether the request carries a valid access token (a bearer token or the web session's cookie).
    let isSignedIn: @Sendable (_ request: HTTPRequest) async -> Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let limit = await self.limit(for: request)
        func tooLarge() -> ProblemDocument {
            limit < self.limit
                ? .payloadTooLarge("Without a valid access token a body may be at most \(limit) bytes.")
                : .payloadTooLarge(limit: limit)
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw tooLarge()
        }
        var request = request
        let body: ByteBuffer
        let hasBody =
            request.headers[.contentLength].flatMap(Int.init).map { $0 > 0 }
            ?? (request.headers[.transferEncoding] != nil)
        let address = RequestPeer.address
        if hasBody {
            guard self.sending.enter(address, limit: self.perAddress) else {
                throw ProblemDocument.rateLimited(
                    "This address is sending \(self.perAddress) request bodies to this server already; finish those first.",
                    retryAfter: 1
                )
            }
        }
        do {
            defer { if hasBody { self.sending.leave(address) } }
            body = try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw tooLarge()
        }
        var parsed: ParsedBody?
        if body.readableBytes > 0, Self.isJSON(request.headers[.contentType]) {
            let document: Any
            do {
                document = try JSONSerialization.jsonObject(
                    with: Data(body.readableBytesView),
                    options: .fragmentsAllowed
                )
            } catch {
                throw ProblemDocument.malformedJSON("The body is not valid JSON.")
            }
            if let field = Self.fieldHoldingNUL(in: document) {
                throw ProblemDocument.badBody(
                    FieldViolation(field: field, reason: "must not contain the NUL character (\\u0000)")
                )
            }
            parsed = ParsedBody(document: document)
        }
        do {
            return try await ParsedBody.$current.withValue(parsed) { try await next(request, context) }
        } catch let error as ServerError {
            guard case .dataCorrupted(let detail) = error.underlyingError as? DecodingError, detail.codingPath.isEmpty
            else {
                throw error
            }
            // A parameter or body the document's schemas can name was answered by `InputCheckMiddleware`; what
            // is left is what they cannot tell apart.
            if body.readableBytes == 0 {
                // Without a body, what did not decode is a query parameter's value (an enum's unknown case:
                // the decoder's error names no key, only the value it refused, which names the parameter).
                if let query = request.uri.query, !query.isEmpty {
                    let field = ProblemDocument.queryItem(failing: .dataCorrupted(detail), in: request.head) ?? "query"
                    throw ProblemDocument.validationFailed([
                        FieldViolation(
                            field: field,
                            reason:
                                "has a value this operation does not take (\(ProblemDocument.readable(detail.debugDescription)))"
                        )
                    ])
                }
                throw ProblemDocument.badRequest("The body is empty; this operation expects a JSON document.")
            }
            // The syntax was checked above, so a value does not fit the field it was given for: a number, or a
            // date-time (the runtime names neither's field).
            throw ProblemDocument.validationFailed([
                FieldViolation(
                    field: "body",
                    reason:
                        "a value does not fit its field (a fraction or too large for an integer, or a date-time not in RFC 3339)"
                )
            ])
        }
    }

    /// The caller is asked for only when the body may be larger than the anonymous limit.
    private func limit(for request: Request) async -> Int {
        guard self.limit > self.anonymousLimit else { return self.limit }
        let length = request.headers[.contentLength].flatMap(Int.init)
        if let length, length <= self.anonymousLimit { return self.limit }
        if length == nil, request.method == .get || request.method == .head { return self.limit }
        guard await self.isSignedIn(request.head) else { return self.anonymousLimit }
        return self.limit
    }

    /// The JSON path of the first key or string that holds NUL (`\u0000`), which no field takes: PostgreSQL's
    /// text cannot store it, so it would fail deep in a query (a 500) instead of here, once for every body.
    static func fieldHoldingNUL(in value: Any, at path: String = "") -> String? {
        switch value {
        case let text as String:
            return text.utf8.contains(0) ? (path.isEmpty ? "body" : path) : nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let field = Self.fieldHoldingNUL(in: element, at: "\(path)[\(index)]") { return field }
            }
            return nil
        case let object as [String: Any]:
            for (key, element) in object {
                let field = path.isEmpty ? key : "\(path).\(key)"
                if key.utf8.contains(0) { return path.isEmpty ? "body" : path }
                if let found = Self.fieldHoldingNUL(in: element, at: field) { return found }
            }
            return nil
        default:
            return nil
        }
    }

    private static func isJSON(_ contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        else {
            return false
        }
        return type == "application/json" || type.hasSuffix("+json")
    }
}

/// The JSON body `RequestBodyMiddleware` parsed, for `InputCheckMiddleware` to read without parsing it again.
struct ParsedBody: @unchecked Sendable {  // what JSONSerialization answers is never changed after parsing
    let document: Any

    @TaskLocal static var current: ParsedBody?
}
