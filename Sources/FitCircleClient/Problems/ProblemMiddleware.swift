import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Turns every 4xx and 5xx into a thrown `FitCircleProblem`, whatever the operation: the generated client
/// then never hands the app an undocumented case, and all refusals look alike.
struct ProblemMiddleware: ClientMiddleware {
    /// A problem document is small; a larger error body is not read further.
    static let largestProblem = 64 * 1024

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        var data = Data()
        if let responseBody { data = (try? await Data(collecting: responseBody, upTo: Self.largestProblem)) ?? Data() }
        throw Self.problem(status: response.status, headers: response.headerFields, body: data)
    }

    static func problem(status: HTTPResponse.Status, headers: HTTPFields, body: Data) -> FitCircleProblem {
        var problem =
            (try? JSONDecoder().decode(Document.self, from: body)).map {
                var problem = FitCircleProblem(
                    type: $0.type ?? "about:blank",
                    title: $0.title ?? status.reasonPhrase,
                    status: $0.status ?? status.code,
                    detail: $0.detail,
                    fieldErrors: $0.errors ?? []
                )
                (problem.xpNeeded, problem.xpAvailable) = ($0.xpNeeded, $0.xpAvailable)
                (problem.limit, problem.nextFreezeOn) = ($0.limit, $0.nextFreezeOn)
                return problem
            } ?? FitCircleProblem(type: "about:blank", title: status.reasonPhrase, status: status.code)
        problem.retryAfter = headers[.retryAfter].flatMap(Self.retryAfter)
        return problem
    }

    /// `Retry-After` in seconds or as an HTTP date.
    static func retryAfter(_ value: String) -> Duration? {
        if let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 { return .seconds(seconds) }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = format.date(from: value) else { return nil }
        return .seconds(max(0, date.timeIntervalSinceNow.rounded(.up)))
    }

    private struct Document: Decodable {
        var type: String?
        var title: String?
        var status: Int?
        var detail: String?
        var errors: [FitCircleProblem.FieldError]?
        var xpNeeded: Int?
        var xpAvailable: Int?
        var limit: Int?
        var nextFreezeOn: String?
    }
}

extension Error {
    /// The server's problem behind this error, also when it came through the generated `Client` (which wraps
    /// what its middlewares throw in `ClientError`).
    public var fitCircleProblem: FitCircleProblem? {
        if let problem = self as? FitCircleProblem { return problem }
        if case .sessionEnded(let problem) = self as? FitCircleError { return problem }
        return (self as? ClientError)?.underlyingError.fitCircleProblem
    }
}
