import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Answers compressed (gzip or deflate) for a client whose `Accept-Encoding` asks for it: JSON, HTML, CSS,
/// scripts, CSV, YAML and the export's JSON lines of a kilobyte or more — never an event stream (each event
/// must reach the client when it is written) nor an image (already compressed). NIO's compressor does the
/// work on HTTP/1's parts; Hummingbird adds a server's own handlers only after those are converted to HTTP
/// types, so this one puts the compressor before the conversion when it is added, and leaves.
final class ResponseCompression: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        if let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) {
            let compressor = HTTPResponseCompressor(initialByteBufferCapacity: 0) { head, supported in
                Self.intent(&head, supported: supported)
            }
            // Without it (it could not be added), answers are the same, only larger.
            try? pipeline.addHandler(compressor, position: .before(codec))
        }
        pipeline.removeHandler(context: context, promise: nil)
    }

    static let compressedTypes = [
        "application/json", "application/problem+json", "application/x-ndjson", "application/yaml",
        "application/javascript", "text/html", "text/css", "text/javascript", "text/csv", "text/plain",
        "image/svg+xml",
    ]

    /// Whether an answer with this head is compressed when the client takes it; then caches are told the
    /// answer varies by `Accept-Encoding`, and its `ETag` becomes weak (the same content in other bytes).
    static func intent(_ head: inout HTTPResponseHead, supported: Bool) -> HTTPResponseCompressor.CompressionIntent {
        let type = head.headers.first(name: "content-type") ?? ""
        guard Self.compressedTypes.contains(where: { type.hasPrefix($0) }) else { return .doNotCompress }
        if let length = head.headers.first(name: "content-length").flatMap({ Int($0) }), length < 1024 {
            return .doNotCompress
        }
        head.headers.add(name: "vary", value: "Accept-Encoding")
        guard supported else { return .compressIfPossible }
        if let tag = head.headers.first(name: "etag"), !tag.hasPrefix("W/") {
            head.headers.replaceOrAdd(name: "etag", value: "W/" + tag)
        }
        // The uncompressed length is wrong once compressed. The compressor sets the right one when it holds
        // the whole answer at its first flush, but a head flushed before its body would leave with this one
        // and the client would wait for bytes that never come: chunked unless the compressor knows better.
        head.headers.remove(name: "content-length")
        head.headers.replaceOrAdd(name: "transfer-encoding", value: "chunked")
        return .compressIfPossible
    }
}
