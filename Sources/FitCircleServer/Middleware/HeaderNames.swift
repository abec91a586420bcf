import HTTPTypes

/// The header names FitCircle uses beyond HTTPTypes' own, in one place.
///
/// `HTTPField.Name` has only a failable public initialiser (it refuses a name that is not an HTTP token).
/// These literals are tokens, and `HeaderNameTests` checks each, so the fallback never runs; were a typo to
/// slip in, it would write a `Via` header (harmless: proxies add it) instead of trapping the node.
extension HTTPField.Name {
    static let requestID = declared("X-Request-Id")
    static let idempotencyKey = declared("Idempotency-Key")
    static let idempotentReplayed = declared("Idempotent-Replayed")
    static let xForwardedFor = declared("X-Forwarded-For")
    static let rateLimitPolicy = declared("RateLimit-Policy")
    static let rateLimit = declared("RateLimit")
    static let csrfToken = declared("X-CSRF-Token")
    static let referrerPolicy = declared("Referrer-Policy")
    static let frameOptions = declared("X-Frame-Options")
    static let fitCircleBoardSource = declared("FitCircle-Board-Source")
    static let deprecation = declared("Deprecation")
    static let link = declared("Link")

    /// Every name above, for the test that reads them back.
    static var declaredNames: [(name: Self, text: String)] {
        [
            (.requestID, "X-Request-Id"), (.idempotencyKey, "Idempotency-Key"),
            (.idempotentReplayed, "Idempotent-Replayed"),
            (.xForwardedFor, "X-Forwarded-For"), (.rateLimitPolicy, "RateLimit-Policy"), (.rateLimit, "RateLimit"),
            (.csrfToken, "X-CSRF-Token"),
            (.referrerPolicy, "Referrer-Policy"), (.frameOptions, "X-Frame-Options"),
            (.fitCircleBoardSource, "FitCircle-Board-Source"), (.deprecation, "Deprecation"), (.link, "Link"),
        ]
    }

    static func declared(_ name: String) -> Self { Self(name) ?? .via }
}

extension HTTPFields {
    /// What `self[name]` reads (the values of every field with that name, joined), without building a new
    /// string in the usual case of one field: the subscript joins through generic lazy sequences on every
    /// read, which showed in a hot read's profile (issue 42).
    func value(_ name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            guard found == nil else { return self[name] }
            found = field.value
        }
        return found
    }
}
