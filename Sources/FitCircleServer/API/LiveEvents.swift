import Foundation
import OpenAPIRuntime

/// The bytes of live streams (`OpenStreams.body`): events as `text/event-stream` writes them, and the heartbeat.
enum LiveEvents {
    /// The first event of a stream that says it listens already, so a client may act knowing it will hear
    /// the result.
    static let ready = ServerSentEvent(event: "ready", data: "{}")

    /// The comment line a stream sends every `OpenStreams.heartbeat` (`:` starts a comment, which every
    /// event-stream client skips). Writing is how the server learns that the client went: the write to a
    /// closed connection fails, the body ends and the stream gives its place back, within about two beats
    /// rather than when the stream's time runs out. It also keeps proxies from cutting a quiet stream as idle.
    static let heartbeat = ArraySlice(":\n\n".utf8)

    /// An event as OpenAPIRuntime's `asEncodedServerSentEvents` writes it: `id`, `event` and `retry` without
    /// line breaks, the data a `data:` line per line, and a blank line.
    static func encoded(_ event: ServerSentEvent) -> ArraySlice<UInt8> {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32 + (event.data?.utf8.count ?? 0))
        func field(_ name: String, _ value: some StringProtocol) {
            bytes.append(contentsOf: name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: value.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        func oneLine(_ value: String) -> String { value.filter { $0 != "\n" && $0 != "\r" && $0 != "\r\n" } }
        if let id = event.id { field("id", oneLine(id)) }
        if let name = event.event { field("event", oneLine(name)) }
        if let retry = event.retry { field("retry", String(retry)) }
        if let data = event.data {
            let lines =
                data.contains(where: \.isNewline)
                ? data.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n").split(
                    separator: "\n",
                    omittingEmptySubsequences: false
                )
                : [Substring(data)]
            for line in lines { field("data", line) }
        }
        bytes.append(UInt8(ascii: "\n"))
        return ArraySlice(bytes)
    }

    /// An event whose data is `value` as JSON (sorted keys, slashes as they are, instants in ISO 8601 as the
    /// document's `date-time` says), as `asEncodedServerSentEventsWithJSONData` writes it. Every stream's
    /// events are written here.
    static func event(id: String? = nil, event: String, json value: some Encodable) throws -> ServerSentEvent {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return ServerSentEvent(id: id, event: event, data: String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
