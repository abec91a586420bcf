import Foundation
import Testing

@testable import FitCircleCore

/// The hand-written base64url against the Foundation-based one it replaced (the oracle below).
struct Base64URLTests {
    static func foundationEncoded(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func foundationDecoded(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    @Test func encodesAndDecodesAsFoundationDoes() {
        var random = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let data = Data((0..<length).map { _ in UInt8.random(in: .min ... .max, using: &random) })
            let text = data.base64URLEncoded()
            #expect(text == Self.foundationEncoded(data))
            #expect(Data(base64URLEncoded: text) == data)
        }
    }

    /// Without `=`, the same answers as Foundation's. Trailing `=` is ignored, whatever its count (Foundation
    /// reads "====" as a zero byte); a `=` before the end is refused (Foundation stops reading there).
    @Test func readsAndRefusesWhatFoundationReadsAndRefuses() {
        var random = SystemRandomNumberGenerator()
        let characters = Array("AQgw-_+/=. é\n")
        var texts = [
            "", "=", "==", "Q", "QQ", "QQ=", "QQ==", "QQ===", "QR==", "QUI", "QUJ=", "Q===", "QQ==QQ==", "QUJD",
            "QUJD=",
        ]
        for _ in 0..<5_000 {
            texts.append(
                String(
                    (0..<Int.random(in: 0...10, using: &random)).map { _ in characters.randomElement(using: &random)! }
                )
            )
        }
        for text in texts {
            let unpadded = String(text.reversed().drop(while: { $0 == "=" }).reversed())
            if unpadded.contains("=") {
                #expect(Data(base64URLEncoded: text) == nil, "\(text.debugDescription): a = before the end")
            } else {
                #expect(Data(base64URLEncoded: text) == Self.foundationDecoded(unpadded), "\(text.debugDescription)")
            }
        }
    }
}
