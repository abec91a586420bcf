import Crypto
import FitCircleCore
import Foundation

/// A strong entity tag of an answer's bytes (RFC 9110, 8.8.3): equal answers have equal tags, so a tag a
/// client holds matches only an answer it was already given, whoever asks — a tag cannot bring another
/// person's answer, and an answer that changed (or that differs for this viewer) has another tag.
enum EntityTag {
    /// The first 16 bytes of the SHA-256 of `bytes`, in base64url, quoted.
    static func of(_ bytes: some DataProtocol) -> String {
        let digest = SHA256.hash(data: bytes)
        return "\"" + Data(digest.prefix(16)).base64URLEncoded() + "\""
    }

    /// Whether an `If-None-Match` field value names `tag` (weak comparison, as the field asks; `*` names
    /// any). A value that is not a list of tags names nothing.
    static func matches(_ ifNoneMatch: String?, _ tag: String) -> Bool {
        guard let ifNoneMatch, ifNoneMatch.utf8.count <= 8 * 1024 else { return false }
        if ifNoneMatch == tag { return true }  // what a client sends back, most of the time
        for candidate in ifNoneMatch.utf8.split(separator: UInt8(ascii: ",")) {
            let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            var trimmed = candidate.drop(while: isBlank)
            while let last = trimmed.last, isBlank(last) { trimmed = trimmed.dropLast() }
            if trimmed.elementsEqual("*".utf8) { return true }
            if trimmed.starts(with: "W/".utf8) { trimmed = trimmed.dropFirst(2) }
            if trimmed.elementsEqual(tag.utf8) { return true }
        }
        return false
    }
}
