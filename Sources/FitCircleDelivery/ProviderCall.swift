import AsyncHTTPClient
public import FitCircleCore
import Foundation
import NIOCore
import NIOHTTP1

/// A provider's HTTP answer, read whole (they are small).
struct ProviderResponse: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: Data
}

/// Calls a provider over HTTP and turns what happened into a `DeliveryAttempt`: a transport failure
/// (timeout, refused or dropped connection) is retryable; an answer is classified by `classify`.
struct ProviderCall: Sendable {
    let provider: String
    let http: HTTPClient
    let timeout: TimeAmount

    func attempt(
        _ request: @Sendable () async throws -> HTTPClientRequest,
        classify: @Sendable (ProviderResponse) -> DeliveryOutcome
    ) async -> DeliveryAttempt {
        let started = ContinuousClock.now
        func milliseconds() -> Int { (ContinuousClock.now - started).wholeMilliseconds }
        do {
            let response = try await self.send(try await request())
            return DeliveryAttempt(
                provider: self.provider,
                outcome: classify(response),
                status: response.status,
                latencyMilliseconds: milliseconds()
            )
        } catch {
            return DeliveryAttempt(
                provider: self.provider,
                outcome: .retryable(reason: "no answer: \(error)"),
                status: nil,
                latencyMilliseconds: milliseconds()
            )
        }
    }

    func send(_ request: HTTPClientRequest) async throws -> ProviderResponse {
        let response = try await self.http.execute(request, timeout: self.timeout)
        let body = try await response.body.collect(upTo: 1 << 20)
        return ProviderResponse(
            status: Int(response.status.code),
            headers: response.headers,
            body: Data(body.readableBytesView)
        )
    }
}
