public import FitCircleCore
import Foundation
public import HTTPTypes

/// An RFC 9457 problem: what every error response of FitCircle carries as `application/problem+json`.
public struct ProblemDocument: Error, Equatable, Sendable, Codable {
    /// A stable identifier, `/problems/<slug>`; clients switch on it.
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    /// For invalid input: one entry per offending field.
    public var errors: [FieldViolation]?
    /// Seconds until trying again may succeed, sent as the `Retry-After` header (not in the body).
    public var retryAfter: Int? = nil
    /// Further headers of the answer (a rate limit's state), not in the body.
    public var headers: HTTPFields = [:]

    private enum CodingKeys: String, CodingKey { case type, title, status, detail, errors }

    public init(
        slug: String,
        title: String,
        status: HTTPResponse.Status,
        detail: String,
        errors: [FieldViolation]? = nil
    ) {
        self.type = "/problems/\(slug)"
        self.title = title
        self.status = status.code
        self.detail = detail
        self.errors = errors
    }

    public static let contentType = "application/problem+json"
}

extension ProblemDocument {
    static func malformedJSON(_ detail: String) -> Self {
        .init(slug: "malformed-json", title: "The body is not valid JSON", status: .badRequest, detail: detail)
    }

    static func badRequest(_ detail: String) -> Self {
        .init(slug: "bad-request", title: "The request could not be read", status: .badRequest, detail: detail)
    }

    /// A query or path parameter that cannot be searched or read, named as a field.
    static func badQuery(_ violation: FieldViolation) -> Self {
        .init(
            slug: "bad-request",
            title: "The request could not be read",
            status: .badRequest,
            detail: "Invalid: \(violation.field). Nothing was done.",
            errors: [violation]
        )
    }

    /// A body field that cannot be read at all (as opposed to a value that breaks a rule: 422).
    static func badBody(_ violation: FieldViolation) -> Self {
        .init(
            slug: "bad-request",
            title: "The request could not be read",
            status: .badRequest,
            detail: "Invalid: \(violation.field). Nothing was done.",
            errors: [violation]
        )
    }

    static func validationFailed(_ violations: [FieldViolation]) -> Self {
        let fields = violations.map(\.field).joined(separator: ", ")
        return .init(
            slug: "validation-failed",
            title: "Some fields are invalid",
            status: .unprocessableContent,
            detail: "Invalid: \(fields). Nothing was changed.",
            errors: violations
        )
    }

    static func unauthenticated(_ detail: String) -> Self {
        .init(slug: "unauthenticated", title: "Sign-in required", status: .unauthorized, detail: detail)
    }

    static func forbidden(_ detail: String) -> Self {
        .init(slug: "forbidden", title: "Not allowed", status: .forbidden, detail: detail)
    }

    static let onboardingRequired = Self(
        slug: "onboarding-required",
        title: "Complete your profile first",
        status: .forbidden,
        detail:
            "This app requires a display name, age, weight and time zone before anything else: PUT /api/user/profile."
    )

    static func notFound(_ detail: String) -> Self {
        .init(slug: "not-found", title: "Not found", status: .notFound, detail: detail)
    }

    static func methodNotAllowed(_ method: String, allowed: [String]) -> Self {
        .init(
            slug: "method-not-allowed",
            title: "Method not allowed",
            status: .methodNotAllowed,
            detail: "\(method) is not supported here; use \(allowed.joined(separator: ", "))."
        )
    }

    static func conflict(_ detail: String) -> Self {
        .init(slug: "conflict", title: "Conflict", status: .conflict, detail: detail)
    }

    static func payloadTooLarge(limit: Int?) -> Self {
        Self.payloadTooLarge(
            limit.map { "This operation accepts at most \($0) bytes." } ?? "The body is too large for this operation."
        )
    }

    static func payloadTooLarge(_ detail: String) -> Self {
        .init(slug: "payload-too-large", title: "The body is too large", status: .contentTooLarge, detail: detail)
    }

    static func unsupportedMediaType(_ detail: String) -> Self {
        .init(
            slug: "unsupported-media-type",
            title: "Unsupported media type",
            status: .unsupportedMediaType,
            detail: detail
        )
    }

    static func notAcceptable(_ detail: String) -> Self {
        .init(slug: "not-acceptable", title: "Not acceptable", status: .notAcceptable, detail: detail)
    }

    static func rateLimited(_ detail: String, retryAfter: Int) -> Self {
        var problem = Self(slug: "rate-limited", title: "Too many requests", status: .tooManyRequests, detail: detail)
        problem.retryAfter = retryAfter
        return problem
    }

    static func unavailable(_ detail: String) -> Self {
        .init(slug: "unavailable", title: "Unavailable", status: .serviceUnavailable, detail: detail)
    }

    static let internalError = Self(
        slug: "internal",
        title: "Internal error",
        status: .internalServerError,
        detail: "The server failed to handle this request; the details are in its logs."
    )
}
