import FitCircleTesting
import Foundation
import HTTPTypes
import NIOCore
import OpenAPIRuntime

/// The SDK's calls handed to a `TestApp` in this process, on the test's clock: for what needs the server's
/// time moved (a month of days in a second).
struct InProcessTransport: ClientTransport {
    let app: TestApp

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var data: Data?
        if let body { data = try await Data(collecting: body, upTo: 16 << 20) }
        let response = try await self.app.request(request.method, request.path ?? "/", body: data, headers: request.headerFields)
        return (response.head, HTTPBody(Data(response.body.readableBytesView)))
    }
}
