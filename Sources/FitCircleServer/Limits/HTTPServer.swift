import HTTPTypes
public import Hummingbird
public import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// How long a client may take: a connection with no complete request head for `idle` is closed (so is a
/// slow-loris sending its headers a byte at a time: bytes that do not make a whole head do not count), and
/// a request whose body has not fully arrived `requestRead` after its head is cut off — `anonymousRequestRead`
/// when the head carries no credentials (no `Authorization`, no cookie): sign-in and the other public
/// requests are small, and whoever trickles one in may not hold a connection for long. Responses, event
/// streams included, may take as long as they take.
public struct ConnectionDeadlines: Equatable, Sendable {
    public var idle: Duration
    public var requestRead: Duration
    public var anonymousRequestRead: Duration

    public init(
        idle: Duration = .seconds(60),
        requestRead: Duration = .seconds(30),
        anonymousRequestRead: Duration? = nil
    ) {
        self.idle = idle
        self.requestRead = requestRead
        self.anonymousRequestRead = anonymousRequestRead ?? min(.seconds(5), requestRead)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with FitCircle's connection deadlines.
    public static func fitCircle(_ deadlines: ConnectionDeadlines) -> HTTPServerBuilder {
        .http1(
            configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: [
                    RequestReadDeadline(
                        limit: TimeAmount(deadlines.requestRead),
                        anonymousLimit: TimeAmount(deadlines.anonymousRequestRead)
                    )
                ],
                idleTimeout: TimeAmount(deadlines.idle)
            )
        )
    }
}

/// Closes the connection when a request's body has not arrived within `limit` of its head, or
/// `anonymousLimit` for a head without credentials (Hummingbird's idle timeout keeps a connection open as
/// long as any body byte trickles in). Only the credentials' presence is looked at here: whether they are
/// valid is the middleware's business, and a forged one buys no more than a connection (the node's places
/// are taken only once a body has arrived, `AdmissionMiddleware`).
final class RequestReadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    let limit: TimeAmount
    let anonymousLimit: TimeAmount
    private var timer: Scheduled<Void>?

    init(limit: TimeAmount, anonymousLimit: TimeAmount) {
        self.limit = limit
        self.anonymousLimit = anonymousLimit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            self.timer?.cancel()
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            let credentials = head.headerFields[.authorization] != nil || head.headerFields[.cookie] != nil
            self.timer = context.eventLoop.scheduleTask(in: credentials ? self.limit : self.anonymousLimit) {
                loopBound.value.close(promise: nil)
            }
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
