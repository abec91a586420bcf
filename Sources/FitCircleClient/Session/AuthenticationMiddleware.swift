import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Puts the access token on every call that needs one and, when the server answers 401, sends the call
/// once more with a refreshed token.
struct AuthenticationMiddleware: ClientMiddleware {
    let authenticator: Authenticator
    /// The request bodies the SDK sends are small JSON documents; they are held so a refused call can be
    /// sent again.
    static let largestBody = 16 * 1024 * 1024

    /// The operations that take no token (`security: []` in the document).
    static let open: Set<String> = [
        "signInWithGoogle", "signInWithApple", "signInForDevelopment", "refreshTokens",
        "showEmailedInvitation", "showEmailUnsubscribe", "unsubscribeFromEmails", "emailOpened", "emailLinkClicked",
    ]

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard !Self.open.contains(operationID) else { return try await next(request, body, baseURL) }
        var data: Data?
        if let body { data = try await Data(collecting: body, upTo: Self.largestBody) }
        var request = request
        let token = try await self.authenticator.token()
        request.headerFields[.authorization] = "Bearer \(token)"
        let (response, responseBody) = try await next(request, data.map { HTTPBody($0) }, baseURL)
        guard response.status == .unauthorized else { return (response, responseBody) }
        let fresh = try await self.authenticator.token(replacing: token)
        request.headerFields[.authorization] = "Bearer \(fresh)"
        return try await next(request, data.map { HTTPBody($0) }, baseURL)
    }
}
