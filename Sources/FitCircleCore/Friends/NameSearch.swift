public import Foundation

/// How people are found by name (spec 004, R15): a query matches the start of any word of a display name,
/// or of the whole name when it has several words, ignoring case and accents ("jose" finds "José Ángel",
/// "ang" too, "jose an" too). Both names and queries are folded the same way into search terms, which the
/// store keeps in an ordered index, so a prefix is a range of it on either database.
public enum NameSearch {
    /// A query with fewer letters and digits than this searches nothing.
    public static let minimumQueryLength = 3
    /// At most this many people answer one search.
    public static let maximumResults = 20
    /// Terms are cut to this many UTF-8 bytes (a name is at most 200).
    static let maximumTermBytes = 100

    /// One entry of the index: a folded word of the name, or the whole folded name (`whole`).
    public struct Term: Hashable, Sendable {
        public var text: String
        public var whole: Bool

        public init(text: String, whole: Bool) {
            self.text = text
            self.whole = whole
        }
    }

    /// The index entries of a display name: each distinct word, and the whole name when it has several.
    public static func terms(of displayName: String) -> [Term] {
        let words = Self.words(of: displayName)
        var terms = Set(words.map { Term(text: Self.bounded($0), whole: false) })
        if words.count > 1 { terms.insert(Term(text: Self.bounded(words.joined(separator: " ")), whole: true)) }
        return terms.sorted { ($0.whole ? 1 : 0, $0.text) < ($1.whole ? 1 : 0, $1.text) }
    }

    /// What a search looks for.
    public enum Query: Equatable, Sendable {
        /// An address, matched only exactly (lowercased), so addresses cannot be enumerated by prefix.
        case email(String)
        /// A term prefix, matched against whole names (a query of several words) or words.
        case name(prefix: Term)
    }

    /// What `raw` looks for; `nil` when it is too short to search (fewer than 3 characters once folded).
    public static func query(_ raw: String) -> Query? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.contains("@") {
            return trimmed.count >= Self.minimumQueryLength ? .email(trimmed.lowercased()) : nil
        }
        let words = Self.words(of: trimmed)
        let text = Self.bounded(words.joined(separator: " "))
        guard words.reduce(0, { $0 + $1.count }) >= Self.minimumQueryLength else { return nil }
        return .name(prefix: Term(text: text, whole: words.count > 1))
    }

    /// The upper bound of a prefix's range in the index: every term that starts with `prefix` sorts below
    /// it in byte order (U+10FFFF is the last code point, and a term never holds it).
    public static func upperBound(of prefix: String) -> String { prefix + "\u{10FFFF}" }

    /// Case and accents folded, split at anything but letters and digits.
    static func words(of text: String) -> [String] {
        let folded = text.precomposedStringWithCanonicalMapping.folding(
            options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive],
            locale: nil
        )
        .lowercased()
        // Letters (with the marks scripts spell with, which are alphabetic) and digits; not the variation
        // selectors and joiners of emoji.
        return folded.unicodeScalars.split { !($0.properties.isAlphabetic || $0.properties.numericType == .decimal) }
            .map { String(String.UnicodeScalarView($0)) }
    }

    private static func bounded(_ text: String) -> String {
        var text = text.replacingOccurrences(of: "\u{10FFFF}", with: "")
        while text.utf8.count > Self.maximumTermBytes { text.removeLast() }
        return text
    }
}
