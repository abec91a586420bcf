import Hummingbird

/// Answers a live stream's request (every middleware after this one and the handler) in a child task that
/// ends once the answer's head is made, so the connection's task, which then writes the stream's body for up
/// to an hour, does not keep what the request needed.
///
/// Why: a Swift task keeps the stack slabs its deepest frames needed until it ends. The chain of middleware,
/// the sign-in, the access check and the handler left about 55 KB of slabs in each connection that went on to
/// stream; ten thousand open streams held 550 MB for nothing (issue 42, found with `heaptrack`). A child task
/// frees its slabs when it ends. Other requests go on in the connection's task: their task ends soon anyway.
struct StreamTaskMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The route templates that answer a stream (`RouteTable.streamPaths`).
    let streamPaths: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let path = context.endpointPath, self.streamPaths.contains(path) else {
            return try await next(request, context)
        }
        return try await withoutActuallyEscaping(next) { next in
            // Called once, by the child, while this task waits for it: nothing else touches `next` meanwhile.
            nonisolated(unsafe) let next = next
            async let response = next(request, context)
            return try await response
        }
    }
}
