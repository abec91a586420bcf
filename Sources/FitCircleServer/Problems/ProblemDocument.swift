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
    /// A refusal's figures (`xpNeeded`, `limit`, …), written as members of the document beside the others
    /// (RFC 9457's extension members).
    public var facts: [String: Refusal.Fact] = [:]

    private enum CodingKeys: String, CodingKey { case type, title, status, detail, errors }

    private struct FactKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.type, forKey: .type)
        try container.encode(self.title, forKey: .title)
        try container.encode(self.status, forKey: .status)
        try container.encode(self.detail, forKey: .detail)
        try container.encodeIfPresent(self.errors, forKey: .errors)
        var facts = encoder.container(keyedBy: FactKey.self)
        for (name, fact) in self.facts {
            switch fact {
            case .number(let number): try facts.encode(number, forKey: FactKey(stringValue: name))
            case .text(let text): try facts.encode(text, forKey: FactKey(stringValue: name))
            }
        }
    }

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
            detail: "Invalid: \(violation.field).",
            errors: [violation]
        )
    }

    /// A body field that cannot be read at all (as opposed to a value that breaks a rule: 422).
    static func badBody(_ violation: FieldViolation) -> Self {
        .init(
            slug: "bad-request",
            title: "The request could not be read",
            status: .badRequest,
            detail: "Invalid: \(violation.field).",
            errors: [violation]
        )
    }

    /// The most violations one answer lists: a body of a megabyte can hold thousands of wrong members, and
    /// the answer should not outgrow the request; the rest are counted.
    static let listedViolations = 100

    /// The detail names the fields and no more: "Nothing was changed" read oddly on a refused GET, and the
    /// document says once that a request that fails changes nothing (review, I34).
    static func validationFailed(_ violations: [FieldViolation]) -> Self {
        let listed = Array(violations.prefix(Self.listedViolations))
        let more = violations.count - listed.count
        let fields = listed.map(\.field).joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
        return .init(
            slug: "validation-failed",
            title: "Some fields are invalid",
            status: .unprocessableContent,
            detail: "Invalid: \(fields).",
            errors: listed
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

    /// A business rule's refusal: a problem type of its own per rule, 409 (403 for a sign-in that is not
    /// fresh), with the figures a client acts on.
    static func refused(_ refusal: Refusal) -> Self {
        var problem = Self(
            slug: refusal.kind.rawValue,
            title: Self.titles[refusal.kind] ?? "Refused",
            status: refusal.kind == .freshSignInRequired ? .forbidden : .conflict,
            detail: refusal.reason
        )
        problem.facts = refusal.facts
        return problem
    }

    static let titles: [Refusal.Kind: String] = [
        .insufficientXP: "Not enough XP",
        .freezeNotNeeded: "No freeze is needed",
        .noFreezeLeft: "No freeze left",
        .streakNotProtectable: "The streak cannot be protected",
        .alreadyCheckedIn: "Already checked in",
        .notEncourageable: "Nothing to encourage",
        .trackedAutomatically: "Tracked automatically",
        .challengeClosed: "The challenge is closed",
        .full: "Full",
        .circleArchived: "The circle is archived",
        .alreadyMember: "Already a member",
        .banned: "Removed from the circle",
        .limitReached: "A limit is reached",
        .periodClosed: "That day is closed",
        .alreadyStarted: "Already started",
        .wrongState: "Not in this state",
        .freshSignInRequired: "Sign in again first",
    ]

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
