/// One invalid field of a request: its JSON path (`weight.value`) and why it was refused.
public struct FieldViolation: Equatable, Sendable, Codable {
    public var field: String
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }
}

/// Input that breaks a rule; carries every offending field so a client can show them all at once.
public struct ValidationError: Error, Equatable, Sendable {
    public var violations: [FieldViolation]

    public init(_ violations: [FieldViolation]) {
        self.violations = violations
    }

    public init(field: String, reason: String) {
        self.violations = [FieldViolation(field: field, reason: reason)]
    }
}

/// Collects field violations while checking a value, then throws them together.
public struct Validator: Sendable {
    public private(set) var violations: [FieldViolation] = []

    public init() {}

    public mutating func check(_ condition: Bool, _ field: String, _ reason: @autoclosure () -> String) {
        if !condition {
            self.violations.append(FieldViolation(field: field, reason: reason()))
        }
    }

    public mutating func fail(_ field: String, _ reason: String) {
        self.violations.append(FieldViolation(field: field, reason: reason))
    }

    /// Throws a `ValidationError` with every violation recorded, if any.
    public func throwIfInvalid() throws(ValidationError) {
        if !self.violations.isEmpty {
            throw ValidationError(self.violations)
        }
    }
}
