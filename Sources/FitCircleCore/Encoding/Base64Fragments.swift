public import Foundation

/// What a text looks like inside base64: the three encodings of it, one per alignment of its first byte
/// in a 3-byte group, each cut to the characters that depend on its bytes alone. Any base64 encoding of
/// data that contains the text contains one of them, so a plain substring search finds the text in a
/// base64 column (remembered idempotent responses are stored so) without decoding a row.
public enum Base64Fragments {
    public static func of(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3 else { return [] }
        return (0..<3).map { shift in
            let encoded = Array((Data(repeating: 0, count: shift) + bytes).base64EncodedString().utf8)
            // Characters holding prefix bits (0, 2 or 3 of them), and those past the last whole 6 bits of the text.
            let first = [0, 2, 3][shift]
            let last = (shift + bytes.count) * 8 / 6
            return String(decoding: encoded[first..<last], as: UTF8.self)
        }
    }
}
