import HTTPTypes
import OpenAPIRuntime

/// A request that failed after it was counted against a rate limit: its problem answer carries the limit's
/// headers (`RateLimit-Policy`, `RateLimit`) as a success does, so a client reads its budget from every
/// answer the budget counted (openapi.yaml, "Limits"). `ProblemMiddleware` unwraps it.
struct CountedFailure: Error {
    let underlying: any Error
    let headers: HTTPFields

    /// The error that decides the answer and the headers it carries besides. The OpenAPI layer wraps what a
    /// middleware throws in a `ServerError`, so a failure counted there arrives one level down.
    static func split(_ error: any Error) -> (error: any Error, headers: HTTPFields) {
        if let counted = error as? CountedFailure { return (counted.underlying, counted.headers) }
        if let server = error as? ServerError, let counted = server.underlyingError as? CountedFailure {
            return (counted.underlying, counted.headers)
        }
        return (error, [:])
    }
}
