/// A refusal from the server, as its RFC 9457 problem document said it: every 4xx and 5xx the API answers
/// is one of these, so an app handles errors by `type` and `status`, and shows `fieldErrors` by their fields.
public struct FitCircleProblem: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// A stable identifier of the kind of problem, e.g. `/problems/validation-failed`.
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String?
    /// For invalid input, one entry per offending field (`field` is a JSON path such as `events[3].steps`).
    public var fieldErrors: [FieldError]
    /// How long the server asked to be left alone (`Retry-After`), on a 429 or 503.
    public var retryAfter: Duration?
    /// A business rule's figures, for the problem types that carry them: the XP a stake takes and the XP
    /// the person has (`/problems/insufficient-xp`), the size or count reached (`/problems/full`,
    /// `/problems/limit-reached`), the day the next streak freeze comes (`/problems/no-freeze-left`).
    public var xpNeeded: Int?
    public var xpAvailable: Int?
    public var limit: Int?
    public var nextFreezeOn: String?

    public struct FieldError: Sendable, Equatable, Codable {
        public var field: String
        public var reason: String

        public init(field: String, reason: String) {
            self.field = field
            self.reason = reason
        }
    }

    public init(
        type: String,
        title: String,
        status: Int,
        detail: String? = nil,
        fieldErrors: [FieldError] = [],
        retryAfter: Duration? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.fieldErrors = fieldErrors
        self.retryAfter = retryAfter
    }

    /// The reason given for `field`, if the server named it.
    public func reason(for field: String) -> String? {
        self.fieldErrors.first { $0.field == field }?.reason
    }

    public var description: String {
        var text = "\(self.status) \(self.title)"
        if let detail { text += ": \(detail)" }
        for error in self.fieldErrors { text += " [\(error.field): \(error.reason)]" }
        return text
    }

    /// Whether the refusal is of the request's content, so sending it again can only fail again: invalid,
    /// too large, about something that is gone, or in conflict with what is recorded. Anything else (the
    /// session, an account that must finish onboarding first, a busy or failing server) is a state that
    /// passes, and the outbox keeps the item.
    public var refusesTheRequest: Bool {
        [400, 404, 409, 410, 413, 415, 422].contains(self.status)
    }
}

/// What went wrong on the client's side of a call.
public enum FitCircleError: Error, Sendable, CustomStringConvertible {
    /// The call needs a signed-in person and there is no session.
    case notSignedIn
    /// The session ended on the server (signed out elsewhere, expired, or its refresh token was reused):
    /// the person must sign in again. The stored session has been forgotten.
    case sessionEnded(FitCircleProblem)
    /// The server could not be reached or the connection broke; the request may or may not have arrived.
    case unreachable(underlying: String)
    /// The server answered something the API document does not describe.
    case unexpectedResponse(status: Int)

    public var description: String {
        switch self {
        case .notSignedIn: "not signed in"
        case .sessionEnded(let problem): "the session ended: \(problem)"
        case .unreachable(let underlying): "the server could not be reached: \(underlying)"
        case .unexpectedResponse(let status): "unexpected answer \(status)"
        }
    }
}
