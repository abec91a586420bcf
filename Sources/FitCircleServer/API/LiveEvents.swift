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
