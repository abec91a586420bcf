/// One event of a `text/event-stream`.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` field; `message` when the server named none.
    public var event: String
    /// The `id:` field: what the stream sends back as `Last-Event-ID` when it reconnects.
    public var id: String?
    /// The `data:` lines, joined by line feeds.
    public var data: String

    public init(event: String = "message", id: String? = nil, data: String) {
        self.event = event
        self.id = id
        self.data = data
    }
}

/// Reads events out of a stream's bytes as they come, however they are cut into chunks (WHATWG HTML,
/// "Interpreting an event stream"): lines end with LF, CR or CRLF; a blank line dispatches the event;
/// comments (`:`) and unknown fields are skipped.
struct ServerSentEventParser {
    private var line: [UInt8] = []
    private var lastWasCR = false
    private var event = ""
    private var id: String?
    private var data: [String] = []
    /// The largest line kept: a stream that sends a longer one is cut.
    static let longestLine = 1 << 20

    mutating func feed(_ bytes: some Sequence<UInt8>) throws -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if byte == 0x0A && self.lastWasCR {
                self.lastWasCR = false
                continue
            }
            self.lastWasCR = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                if let event = self.take(String(decoding: self.line, as: UTF8.self)) { events.append(event) }
                self.line.removeAll(keepingCapacity: true)
            } else {
                guard self.line.count < Self.longestLine else { throw FitCircleError.unexpectedResponse(status: 200) }
                self.line.append(byte)
            }
        }
        return events
    }

    private mutating func take(_ line: String) -> ServerSentEvent? {
        if line.isEmpty {
            defer {
                self.event = ""
                self.data = []
            }
            guard !self.data.isEmpty else { return nil }
            return ServerSentEvent(
                event: self.event.isEmpty ? "message" : self.event,
                id: self.id,
                data: self.data.joined(separator: "\n")
            )
        }
        if line.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            (field, value) = (line[...], "")
        }
        switch field {
        case "event": self.event = String(value)
        case "data": self.data.append(String(value))
        case "id" where !value.contains("\0"): self.id = String(value)
        default: break
        }
        return nil
    }
}
