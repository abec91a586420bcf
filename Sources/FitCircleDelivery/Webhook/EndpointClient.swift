public import AsyncHTTPClient
import NIOCore
import NIOPosix

extension HTTPClient {
    /// The client of calls to URLs an operator registers (webhook endpoints, the analytics forward):
    /// - a redirect is not followed: a public name could redirect into this machine's network, past
    ///   `WebhookSender`'s check of where the name resolves;
    /// - a refused connection fails at once rather than being retried for the call's whole timeout: the
    ///   delivery job's backoff retries it, without holding a worker meanwhile.
    ///
    /// Lives as long as the process, as `HTTPClient.shared` does.
    public static let endpoints: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(10), read: .seconds(30))
        )
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }()
}
