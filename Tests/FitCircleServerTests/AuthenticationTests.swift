import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import FitCircleServer

struct AuthenticationTests {
    /// Every operation of the OpenAPI document that is not marked `security: []`.
    static let protectedOperations: [RouteTable.Operation] = {
        let document = try! String(
            contentsOf: profilesDirectory.deletingLastPathComponent()
                .appendingPathComponent("Sources/FitCircleAPI/openapi.yaml"),
            encoding: .utf8
        )
        return try! RouteTable(openAPIDocument: document).operations.filter { !$0.isPublic }
    }()

    /// Sign-in and refresh, and the links in emails (their signed tokens are the authority).
    @Test func onlySignInRefreshAndEmailLinksArePublic() throws {
        let document = try String(
            contentsOf: profilesDirectory.deletingLastPathComponent()
                .appendingPathComponent("Sources/FitCircleAPI/openapi.yaml"),
            encoding: .utf8
        )
        #expect(
            try RouteTable(openAPIDocument: document).publicOperationIDs
                == [
                    "signInWithGoogle", "signInWithApple", "signInForDevelopment", "refreshTokens",
                    "showEmailedInvitation", "showEmailUnsubscribe", "unsubscribeFromEmails",
                    "emailOpened", "emailLinkClicked",
                ]
        )
    }

    @Test(arguments: Backend.available)
    func everyOtherEndpointAnswers401WithoutAValidToken(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let valid = try await app.devSignIn().accessToken
            let forged = valid.dropLast(4) + "AAAA"
            for operation in Self.protectedOperations {
                let path = operation.path.replacingOccurrences(of: "{id}", with: "x")
                for authorization in [nil, "Bearer", "Basic YTpi", "Bearer not-a-token", "Bearer \(forged)"] {
                    var headers: HTTPFields = [:]
                    if let authorization { headers[.authorization] = authorization }
                    let response = try await app.request(
                        HTTPRequest.Method(operation.method)!,
                        path,
                        json: [String: String](),
                        headers: headers
                    )
                    #expect(
                        response.status == .unauthorized,
                        "\(operation.method) \(path) with \(authorization ?? "no header")"
                    )
                    #expect(try response.problemType() == "/problems/unauthenticated")
                    #expect(response.headers[.wwwAuthenticate] == "Bearer")
                }
            }
        }
    }
}
