/// Cross-cutting failures of a use case that the HTTP layer turns into problem responses.
public enum DomainError: Error, Equatable, Sendable {
    /// The caller is not signed in, or its credentials are no longer valid.
    case unauthenticated(reason: String)
    /// The caller is signed in but may not do this.
    case forbidden(reason: String)
    /// The caller must finish onboarding (its profile) first.
    case onboardingRequired
    /// Nothing of this kind has this id (or the caller may not know it exists).
    case notFound(resource: String, id: String)
    /// The request conflicts with the current state (a duplicate, a key still in use, a concurrent change).
    case conflict(reason: String)
    /// A business rule refuses it, with a problem type of its own (`Refusal.Kind`).
    case refused(Refusal)
    /// The request body is larger than this operation accepts.
    case payloadTooLarge(limit: Int)
    /// The request body's media type is not one this operation accepts.
    case unsupportedMediaType(accepted: [String])
    /// Too many of these, too fast: try again after `retryAfter` seconds.
    case rateLimited(retryAfter: Int, reason: String)
}
