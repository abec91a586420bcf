import FitCircleTesting
import Foundation
import HTTPTypes
import NIOCore
import OpenAPIRuntime
import Synchronization

@testable import FitCircleClient

/// The in-process transport, noting each operation sent and the status it was answered with, in order.
final class RecordingTransport: ClientTransport {
    let inner: InProcessTransport
    let sent = Mutex<[(operation: String, status: Int)]>([])

    init(app: TestApp) { self.inner = InProcessTransport(app: app) }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        let (response, responseBody) = try await self.inner.send(
            request,
            body: body,
            baseURL: baseURL,
            operationID: operationID
        )
        self.sent.withLock { $0.append((operationID, response.status.code)) }
        return (response, responseBody)
    }

    var operations: [String] { self.sent.withLock { $0.map(\.operation) } }

    func statuses(of operation: String) -> [Int] {
        self.sent.withLock { $0.filter { $0.operation == operation }.map(\.status) }
    }
}

extension FitCircle {
    /// A device talking to `app` in this process through `transport`, on the app's clock, with its storage in
    /// a fresh directory that is removed when `body` returns.
    static func withInProcessDevice<Result>(
        _ app: TestApp,
        transport: some ClientTransport,
        _ body: (FitCircle) async throws -> Result
    ) async throws -> Result {
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let device = try await FitCircle(
            .init(
                baseURL: URL(string: "http://in-process")!,
                storageDirectory: storage,
                sessionStore: MemorySessionStore(),
                now: { app.clock.now },
                transport: transport
            )
        )
        return try await body(device)
    }
}
