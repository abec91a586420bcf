import OpenAPIRuntime

/// The body of a live stream: first `ready` (the stream listens already, so a client may act knowing it
/// will hear the result), then the events each update becomes, until the updates end or the client goes.
enum LiveEvents {
    static func afterReady<Updates: AsyncSequence & Sendable>(
        _ updates: Updates, _ events: @escaping @Sendable (Updates.Element) throws -> [ServerSentEvent]
    ) -> AsyncStream<ServerSentEvent> where Updates.Element: Sendable {
        AsyncStream { continuation in
            continuation.yield(ServerSentEvent(event: "ready", data: "{}"))
            let task = Task {
                do {
                    for try await update in updates {
                        for event in try events(update) { continuation.yield(event) }
                    }
                } catch {}
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension LiveEvents {
    /// The comment line a stream sends when it has been quiet for a while (`:` starts a comment, which
    /// every event-stream client skips).
    static let heartbeat = ArraySlice(":\n\n".utf8)

    /// A stream's encoded events as the response body, with a heartbeat every `interval` between them.
    /// Writing is how the server learns that the client went: the write to a closed connection fails, the
    /// body ends and the stream gives its place back (`OpenStreams`), within about two beats rather than
    /// when the stream's time runs out. It also keeps proxies from cutting a quiet stream as idle.
    static func body<Bytes: AsyncSequence & Sendable>(_ bytes: Bytes, heartbeat interval: Duration) -> HTTPBody
    where Bytes.Element == ArraySlice<UInt8> {
        let beating = AsyncThrowingStream<ArraySlice<UInt8>, any Error> { continuation in
            let pump = continuation.forwarding(bytes)
            let beat = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard !Task.isCancelled else { break }
                    continuation.yield(Self.heartbeat)
                }
            }
            continuation.onTermination = { _ in
                pump.cancel()
                beat.cancel()
            }
        }
        return HTTPBody(beating, length: .unknown, iterationBehavior: .single)
    }
}

extension AsyncThrowingStream.Continuation where Failure == any Error, Element: Sendable {
    /// A task that yields every element of `sequence` into this stream and then finishes it (with the
    /// sequence's error, if it throws); cancelling the task stops it.
    func forwarding<Source: AsyncSequence & Sendable>(_ sequence: Source) -> Task<Void, Never> where Source.Element == Element {
        Task {
            do {
                for try await element in sequence { self.yield(element) }
                self.finish()
            } catch {
                self.finish(throwing: error)
            }
        }
    }
}
