public import FitCircleClient
public import Foundation
public import HTTPTypes
import HummingbirdTesting
import NIOCore
public import OpenAPIRuntime

/// The generated client's calls handed to a `TestApp` in this process, on the test's clock: the API as an
/// app calls it, with typed requests and answers, and the server's time moved as the test needs. With a
/// `token`, each call carries it as a bearer.
public struct InProcessTransport: ClientTransport {
    public let app: TestApp
    public var token: String?

    public init(app: TestApp, token: String? = nil) {
        self.app = app
        self.token = token
    }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        var data: Data?
        if let body { data = try await Data(collecting: body, upTo: 16 << 20) }
        let response = try await self.app.request(
            request.method,
            request.path ?? "/",
            token: self.token,
            body: data,
            headers: request.headerFields
        )
        return (response.head, HTTPBody(Data(response.body.readableBytesView)))
    }
}

extension TestApp {
    /// The API as an app calls it: the generated client, in this process, as the holder of `token`.
    public func api(_ token: String? = nil) -> Client {
        Client(serverURL: URL(string: "http://fitcircle.test")!, transport: InProcessTransport(app: self, token: token))
    }
}
