public import Foundation

/// Base64url without padding (RFC 4648 §5), as JWTs, cursors and email link tokens carry it. Written by hand:
/// Foundation's base64 text and three `replacingOccurrences` made a board's cursor 4 % of its read.
extension Data {
    public func base64URLEncoded() -> String {
        Base64URL.encode(self)
    }

    /// Also reads the standard alphabet (`+`, `/`) and trailing `=` padding, as Foundation's decoder does, and
    /// ignores the bits past the last whole byte, as there; unlike there, a `=` before the end is refused.
    public init?(base64URLEncoded text: some StringProtocol) {
        guard let bytes = Base64URL.decode(text.utf8) else { return nil }
        self.init(bytes)
    }
}

enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The value of each ASCII character, 0xFF for those outside both alphabets.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() { values[Int(character)] = UInt8(value) }
        values[Int(UInt8(ascii: "+"))] = 62
        values[Int(UInt8(ascii: "/"))] = 63
        return values
    }()

    static func encode(_ data: Data) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((data.count * 4 + 2) / 3)
        var bits: UInt32 = 0
        var count = 0
        for byte in data {
            bits = bits << 8 | UInt32(byte)
            count += 8
            while count >= 6 {
                count -= 6
                text.append(alphabet[Int(bits >> UInt32(count) & 0x3F)])
            }
        }
        if count > 0 { text.append(alphabet[Int(bits << UInt32(6 - count) & 0x3F)]) }
        return String(decoding: text, as: UTF8.self)
    }

    static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        // Trailing `=` is padding, however much of it; a `=` before the end is refused.
        var length = text.count
        for character in text.reversed() {
            guard character == UInt8(ascii: "=") else { break }
            length -= 1
        }
        guard length % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length * 3 / 4)
        var bits: UInt32 = 0
        var count = 0
        for character in text.prefix(length) {
            let value = self.values[Int(character)]
            guard value != 0xFF else { return nil }
            bits = bits << 6 | UInt32(value)
            count += 6
            if count >= 8 {
                count -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
            }
        }
        return bytes
    }
}
