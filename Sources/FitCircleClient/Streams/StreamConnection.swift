import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One open HTTP connection whose body is handed over chunk by chunk as it arrives, through URLSession's
/// data delegate (on Linux, URLSession's async byte streams do not exist).
final class StreamConnection: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Chunk: Sendable {
        case response(status: Int, retryAfter: String?)
        case bytes(Data)
    }

    private let continuation: AsyncThrowingStream<Chunk, any Error>.Continuation

    private init(_ continuation: AsyncThrowingStream<Chunk, any Error>.Continuation) {
        self.continuation = continuation
    }

    /// Sends `request` and answers its response, then its body's chunks; cancelling the iteration closes
    /// the connection.
    static func open(_ request: URLRequest) -> AsyncThrowingStream<Chunk, any Error> {
        AsyncThrowingStream { continuation in
            let connection = StreamConnection(continuation)
            let session = URLSession(configuration: .ephemeral, delegate: connection, delegateQueue: nil)
            let task = session.dataTask(with: request)
            continuation.onTermination = { _ in
                task.cancel()
                session.invalidateAndCancel()
            }
            task.resume()
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        self.continuation.yield(
            .response(status: http?.statusCode ?? 0, retryAfter: http?.value(forHTTPHeaderField: "Retry-After"))
        )
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        self.continuation.yield(.bytes(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            self.continuation.finish(throwing: FitCircleError.unreachable(underlying: "\(error)"))
        } else {
            self.continuation.finish()
        }
        session.finishTasksAndInvalidate()
    }
}
