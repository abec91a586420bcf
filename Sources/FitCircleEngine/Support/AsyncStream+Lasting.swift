extension AsyncStream where Element: Sendable {
    /// What `produce` yields until it returns or `duration` passes, whichever comes first; dropping the
    /// stream stops `produce` (the live streams of boards and feeds, each open for the time asked).
    static func lasting(_ duration: Duration, _ produce: @escaping @Sendable (Continuation) async -> Void) -> AsyncStream<Element> {
        AsyncStream { continuation in
            let task = Task {
                await produce(continuation)
                continuation.finish()
            }
            let deadline = Task {
                try? await Task.sleep(for: duration)
                task.cancel()
                continuation.finish()
            }
            continuation.onTermination = { _ in
                task.cancel()
                deadline.cancel()
            }
        }
    }
}
