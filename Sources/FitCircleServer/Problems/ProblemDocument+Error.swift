import FitCircleCore
import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime

extension ProblemDocument {
    /// The problem an error stands for, or `nil` when it is a fault of the server (a 500 to log).
    /// This is the one place where errors become HTTP.
    static func from(_ error: any Error) -> ProblemDocument? {
        switch error {
        case let problem as ProblemDocument:
            return problem
        case let error as ServerError:
            // The OpenAPI layer wraps what went wrong; the cause decides the answer. A query item that does not
            // decode comes with no coding path: it is named from the request instead of as "body".
            if let decoding = error.underlyingError as? DecodingError,
                let field = Self.queryItem(failing: decoding, in: error.request)
            {
                return .validationFailed([FieldViolation(field: field, reason: Self.reason(decoding))])
            }
            if let problem = Self.from(error.underlyingError) { return problem }
            return Self.fromStatus(error.httpStatus, detail: error.causeDescription)
        case let error as ValidationError:
            return .validationFailed(error.violations)
        case let error as DomainError:
            return Self.from(error)
        case let error as DecodingError:
            return Self.from(error)
        case let error as StoreError:
            switch error {
            case .duplicate: return .conflict("Something with the same key already exists.")
            case .conflict: return .conflict("A concurrent request changed the same data; try again.")
            case .databaseNewer: return nil
            case .unavailable:
                var problem = ProblemDocument.unavailable("The database does not answer; try again shortly.")
                problem.retryAfter = 5
                return problem
            }
        case let error as HTTPError:
            return Self.fromStatus(error.status, detail: error.body ?? error.status.reasonPhrase)
        default:
            return nil
        }
    }

    private static func from(_ error: DomainError) -> ProblemDocument {
        switch error {
        case .unauthenticated(let reason): .unauthenticated(reason)
        case .forbidden(let reason): .forbidden(reason)
        case .onboardingRequired: .onboardingRequired
        // An id is the caller's own input: echoed cut short, so a megabyte id does not come back whole.
        case .notFound(let resource, let id): .notFound("No \(resource) \(id.count > 64 ? id.prefix(64) + "…" : id).")
        case .conflict(let reason): .conflict(reason)
        case .refused(let refusal): .refused(refusal)
        case .payloadTooLarge(let limit): .payloadTooLarge(limit: limit)
        case .unsupportedMediaType(let accepted):
            .unsupportedMediaType("Send one of: \(accepted.joined(separator: ", ")).")
        case .rateLimited(let retryAfter, let reason): .rateLimited(reason, retryAfter: retryAfter)
        }
    }

    /// Schema violations name the field by its JSON path; a body that is not JSON at all names none.
    private static func from(_ error: DecodingError) -> ProblemDocument {
        switch error {
        case .keyNotFound(let key, let context):
            return .validationFailed([
                FieldViolation(field: Self.path(context.codingPath + [key]), reason: "is required")
            ])
        case .typeMismatch(let type, let context):
            return .validationFailed([
                FieldViolation(field: Self.path(context.codingPath), reason: "must be \(Self.name(of: type))")
            ])
        case .valueNotFound(let type, let context):
            return .validationFailed([
                FieldViolation(field: Self.path(context.codingPath), reason: "must be \(Self.name(of: type)), not null")
            ])
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return .malformedJSON("The body is not valid JSON.")
            }
            return .validationFailed([
                FieldViolation(
                    field: Self.path(context.codingPath),
                    reason: "has an invalid value (\(Self.readable(context.debugDescription)))"
                )
            ])
        @unknown default:
            return .badRequest("\(error)")
        }
    }

    /// A decoder's description without the Swift type names it holds: "Cannot initialize
    /// WorkoutTypesPayloadPayload from invalid String value swim" reads "'swim' is not one of the values it
    /// takes" (the reference lists them).
    static func readable(_ description: String) -> String {
        guard description.hasPrefix("Cannot initialize "),
            let range = description.range(of: " value ", options: .backwards)
        else {
            return description
        }
        return "'\(description[range.upperBound...])' is not one of the values it takes"
    }

    private static func fromStatus(_ status: HTTPResponse.Status, detail: String) -> ProblemDocument? {
        switch status {
        case .badRequest: .badRequest(detail)
        case .unauthorized: .unauthenticated(detail)
        case .forbidden: .forbidden(detail)
        case .notFound: .notFound(detail)
        case .contentTooLarge: .payloadTooLarge(limit: nil)
        case .unsupportedMediaType: .unsupportedMediaType(detail)
        case .notAcceptable: .notAcceptable(detail)
        case .unprocessableContent: .validationFailed([])
        default:
            status.code >= 500
                ? nil
                : ProblemDocument(
                    slug: "http-\(status.code)",
                    title: status.reasonPhrase,
                    status: status,
                    detail: detail
                )
        }
    }

    /// The query item a decoding error with no coding path was about: the one whose value cannot be the
    /// type the error names (or, for an enumeration, whose value the error quotes); nil when the error has a
    /// path, or no single item fits.
    static func queryItem(failing error: DecodingError, in request: HTTPRequest) -> String? {
        let (codingPath, fits): ([any CodingKey], (String) -> Bool)
        switch error {
        case .typeMismatch(let type, let context):
            codingPath = context.codingPath
            switch type {
            case is Int.Type, is Int64.Type, is Int32.Type: fits = { Int($0) != nil }
            case is Double.Type, is Float.Type: fits = { Double($0)?.isFinite == true }
            case is Bool.Type: fits = { $0 == "true" || $0 == "false" }
            default: fits = { _ in true }
            }
        case .dataCorrupted(let context):
            codingPath = context.codingPath
            let quoted = context.debugDescription.range(of: " value ", options: .backwards).map {
                String(context.debugDescription[$0.upperBound...])
            }
            fits = { $0 != quoted }
        default:
            return nil
        }
        guard codingPath.isEmpty, let path = request.path, let items = URLComponents(string: path)?.queryItems else {
            return nil
        }
        let failing = Set(items.filter { !fits($0.value ?? "") }.map(\.name))
        return failing.count == 1 ? failing.first : nil
    }

    private static func reason(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, _): "must be \(Self.name(of: type))"
        case .dataCorrupted(let context): "has an invalid value (\(Self.readable(context.debugDescription)))"
        default: "is invalid"
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return path.isEmpty ? "body" : path
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is Int32.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: String(describing: type).contains("Dictionary") ? "an object" : "of type \(type)"
        }
    }
}
