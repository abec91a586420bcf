import FitCircleCore
import Foundation
import Testing

/// `JSONWriter` must write what the generated stack's `JSONEncoder` writes (`[.sortedKeys,
/// .withoutEscapingSlashes]`), byte for byte, for any text and any finite number a hot read may carry.
struct JSONWriterTests {
    struct Value: Encodable {
        var text: String
        var number: Double
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func written(_ value: Value) -> String {
        var json = JSONWriter()
        json.object { json in
            json.member("number", value.number)
            json.member("text", value.text)
        }
        return String(decoding: json.bytes, as: UTF8.self)
    }

    @Test
    func textAndNumbersAreWrittenAsTheEncoderWritesThem() throws {
        let controls = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()
        let texts = [
            "", "Ana", #"Bo "the \ rock" / 🏃"#, controls, "\u{7F}\u{2028}\u{2029}\u{FEFF}", "e\u{301}", "👩‍👩‍👧‍👦",
            "</script>", "A member",
            String(repeating: "ü", count: 300),
        ]
        let numbers: [Double] = [
            0, -0.0, 1, 12.5, 0.1, 1e-7, 123_456_789_012, 1e21, 1e16, 33.333333333333336, 5e-324, -42.25,
            Double(Int32.max),
        ]
        for text in texts {
            for number in numbers {
                let value = Value(text: text, number: number)
                #expect(
                    Self.written(value) == String(decoding: try Self.encoder().encode(value), as: UTF8.self),
                    "\(text.debugDescription) \(number)"
                )
            }
        }
        // Random text too: any scalar, escapes and all.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let scalars = (0..<Int.random(in: 0...12, using: &generator)).compactMap { _ in
                UnicodeScalar(UInt32.random(in: 0...0x2FFF, using: &generator))
            }
            let value = Value(
                text: String(String.UnicodeScalarView(scalars)),
                number: Double.random(in: -1e6...1e6, using: &generator)
            )
            #expect(
                Self.written(value) == String(decoding: try Self.encoder().encode(value), as: UTF8.self),
                "\(value.text.debugDescription)"
            )
        }
    }

    @Test
    func anAbsentMemberIsLeftOutAndArraysAndObjectsNest() {
        var json = JSONWriter()
        json.object { json in
            json.member("a", nil as String?)
            json.key("rows")
            json.array([1, 2]) { json, row in json.object { $0.member("n", row) } }
            json.member("z", true)
        }
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"{"rows":[{"n":1},{"n":2}],"z":true}"#)
    }
}
