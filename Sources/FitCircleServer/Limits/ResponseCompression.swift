import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Answers compressed (gzip or deflate) for a client whose `Accept-Encoding` asks for it: JSON, HTML, CSS,
/// scripts, CSV, YAML of 1 to 64 KB and the export's JSON lines — never an event stream (each event
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

    /// The answers of a known length compressed: not under a kilobyte (nothing to gain), and not over 64 KB —
    /// compressing costs about 7 µs a kilobyte on these cores, and the largest answers are public (the
    /// document, 380 KB, 6 ms: a client asking for it compressed again and again would have the node do
    /// little else; `scripts/bench-compression.sh`). An answer streamed without a length (the export's
    /// lines) is a signed-in person's own and counted against their budget.
    static let compressedLengths = 1024...(64 * 1024)

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
        if let length = head.headers.first(name: "content-length").flatMap({ Int($0) }),
            !Self.compressedLengths.contains(length)
        {
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
