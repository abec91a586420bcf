public import Hummingbird
public import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// How long a client may take: a connection with no complete request head for `idle` is closed (so is a
/// slow-loris sending its headers a byte at a time: bytes that do not make a whole head do not count), and
/// a request whose body has not fully arrived `requestRead` after its head is cut off. Responses, event
/// streams included, may take as long as they take.
public struct ConnectionDeadlines: Equatable, Sendable {
    public var idle: Duration
    public var requestRead: Duration

    public init(idle: Duration = .seconds(60), requestRead: Duration = .seconds(30)) {
        self.idle = idle
        self.requestRead = requestRead
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with FitCircle's connection deadlines.
    public static func fitCircle(_ deadlines: ConnectionDeadlines) -> HTTPServerBuilder {
        .http1(
            configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: [RequestReadDeadline(limit: TimeAmount(deadlines.requestRead))],
                idleTimeout: TimeAmount(deadlines.idle)
            )
        )
    }
}

/// Closes the connection when a request's body has not arrived within `limit` of its head (Hummingbird's
/// idle timeout keeps a connection open as long as any body byte trickles in).
final class RequestReadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    let limit: TimeAmount
    private var timer: Scheduled<Void>?

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head:
            self.timer?.cancel()
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            self.timer = context.eventLoop.scheduleTask(in: self.limit) { loopBound.value.close(promise: nil) }
        case .end:
            self.timer?.cancel()
            self.timer = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.timer?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.timer?.cancel()
        context.fireChannelInactive()
    }
}
