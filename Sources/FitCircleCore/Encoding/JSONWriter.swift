/// JSON written straight into bytes, for the few answers encoded by hand (the server's `HotReads`) and the
/// reminder planner's trigger payloads (a thousand ids per page and type): the same bytes the
/// generated stack's `JSONEncoder` writes with `[.sortedKeys, .withoutEscapingSlashes]` — a caller writes
/// each object's keys in sorted order, numbers as Swift prints them without a trailing `.0`, strings with
/// the same escapes — so an answer has one `ETag` whichever way it was written (`HotReadContractTests`).
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8]
    /// Whether the next member of the innermost object or array needs a comma before it.
    private var needsComma = false

    public init(capacity: Int = 1024) {
        self.bytes = []
        self.bytes.reserveCapacity(capacity)
    }

    public mutating func object(_ members: (inout JSONWriter) -> Void) {
        self.separate()
        self.bytes.append(UInt8(ascii: "{"))
        self.needsComma = false
        members(&self)
        self.bytes.append(UInt8(ascii: "}"))
        self.needsComma = true
    }

    public mutating func array<Element>(
        _ elements: some Sequence<Element>,
        _ write: (inout JSONWriter, Element) -> Void
    ) {
        self.separate()
        self.bytes.append(UInt8(ascii: "["))
        self.needsComma = false
        for element in elements { write(&self, element) }
        self.bytes.append(UInt8(ascii: "]"))
        self.needsComma = true
    }

    /// A member's key; its value is written next. Keys are the schema's, plain ASCII.
    public mutating func key(_ key: StaticString) {
        self.separate()
        self.bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { self.bytes.append(contentsOf: $0) }
        self.bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        self.needsComma = false
    }

    /// A member's key that is data (a dictionary's), escaped as any string; its value is written next.
    public mutating func key(_ text: String) {
        self.string(text)
        self.bytes.append(UInt8(ascii: ":"))
        self.needsComma = false
    }

    public mutating func string(_ text: String) {
        self.separate()
        self.bytes.append(UInt8(ascii: "\""))
        // Most text needs no escape: copied whole.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            self.bytes.append(contentsOf: text.utf8)
            self.bytes.append(UInt8(ascii: "\""))
            self.needsComma = true
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                self.bytes.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: self.bytes.append(byte)
            }
        }
        self.bytes.append(UInt8(ascii: "\""))
        self.needsComma = true
    }

    public mutating func int(_ value: Int) {
        self.raw(String(value))
    }

    /// A finite number as `JSONEncoder` writes it (`100`, `12.5`, `1e-07`); the API's numbers are finite,
    /// and a non-finite one is written `0` rather than as invalid JSON (the generic path would throw).
    public mutating func double(_ value: Double) {
        guard value.isFinite else { return self.raw("0") }
        let text = value.description
        self.raw(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
    }

    public mutating func bool(_ value: Bool) {
        self.raw(value ? "true" : "false")
    }

    /// Bytes that are already a JSON value (a fragment encoded before).
    public mutating func fragment(_ json: [UInt8]) {
        self.separate()
        self.bytes.append(contentsOf: json)
        self.needsComma = true
    }

    private mutating func raw(_ text: String) {
        self.separate()
        self.bytes.append(contentsOf: text.utf8)
        self.needsComma = true
    }

    private mutating func separate() {
        if self.needsComma { self.bytes.append(UInt8(ascii: ",")) }
    }
}

extension JSONWriter {
    /// Optional members are left out when absent, as the generated `Codable` code does.
    public mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(name)
        self.string(value)
    }

    public mutating func member(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        self.key(name)
        self.int(value)
    }

    public mutating func member(_ name: StaticString, _ value: Double?) {
        guard let value else { return }
        self.key(name)
        self.double(value)
    }

    public mutating func member(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        self.key(name)
        self.bool(value)
    }
}
