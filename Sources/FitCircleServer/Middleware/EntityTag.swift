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
        for candidate in ifNoneMatch.split(separator: ",") {
            var trimmed = candidate.trimmingCharacters(in: .whitespaces)
            if trimmed == "*" { return true }
            if trimmed.hasPrefix("W/") { trimmed.removeFirst(2) }
            if trimmed == tag { return true }
        }
        return false
    }
}
