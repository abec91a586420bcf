public import Foundation

/// How much free text a field takes, and which. Text is normalised to NFC and trimmed, then bounded in
/// characters (grapheme clusters, what a person counts) *and* in UTF-8 bytes: one character can carry any
/// number of combining marks, so a character count alone lets a megabyte through as "one character".
/// Control characters and invisible format characters (bidirectional overrides, zero-width spaces, BOMs)
/// are refused; the joiners that emoji sequences and several scripts need (U+200C, U+200D) are kept. So
/// are private-use, unassigned and noncharacter code points, and the blanks that pass for letters (the
/// Hangul fillers, U+2800, other default-ignorable code points): a name of them would look empty.
public struct TextRule: Equatable, Sendable {
    public var characters: ClosedRange<Int>
    public var bytes: Int
    /// Line breaks and tabs are allowed (descriptions, messages); never in names.
    public var multiline: Bool

    public init(characters: ClosedRange<Int>, bytes: Int, multiline: Bool = false) {
        self.characters = characters
        self.bytes = bytes
        self.multiline = multiline
    }

    /// A person's display name.
    public static let displayName = TextRule(characters: 1...50, bytes: 200)
    /// A circle's name.
    public static let circleName = TextRule(characters: 1...60, bytes: 240)
    /// A circle's description.
    public static let description = TextRule(characters: 0...500, bytes: 2_000, multiline: true)
    /// A short message to another person (an encouragement).
    public static let message = TextRule(characters: 1...140, bytes: 560)

    public enum Refusal: Error, Equatable, Sendable {
        case tooLong, tooShort
        case forbiddenCharacter(Unicode.Scalar)
        /// Nothing in it can be seen.
        case invisible
    }

    /// The text as it is stored, or why it is refused.
    public func cleaned(_ raw: String) -> Result<String, Refusal> {
        // Measured before normalising too, so a huge input costs no more than reading it.
        guard raw.utf8.count <= self.bytes * 4 else { return .failure(.tooLong) }
        let text = raw.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines)
        if let bad = text.unicodeScalars.first(where: { !self.allows($0) }) {
            return .failure(.forbiddenCharacter(bad))
        }
        guard text.utf8.count <= self.bytes, text.count <= self.characters.upperBound else { return .failure(.tooLong) }
        guard text.count >= self.characters.lowerBound else { return .failure(.tooShort) }
        guard text.isEmpty || text.unicodeScalars.contains(where: Self.isVisible) else { return .failure(.invisible) }
        return .success(text)
    }

    /// Whether a scalar shows something: not a space, and not one of the blanks that are not spaces.
    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.properties.isWhitespace && !scalar.properties.isDefaultIgnorableCodePoint && scalar.value != 0x2800
            && scalar.properties.generalCategory != .spaceSeparator
    }

    /// The text cut to fit, with what is not allowed left out: for a name suggested by an identity provider
    /// or taken from an email address, where refusing would refuse the sign-in. `nil` when nothing is left.
    public func fitted(_ raw: String) -> String? {
        let kept = String(String.UnicodeScalarView(raw.unicodeScalars.prefix(self.bytes).filter(self.allows)))
        // A character keeps at most 16 code points: enough for any emoji sequence, not for a pile of marks.
        let tamed = kept.map {
            $0.unicodeScalars.count <= 16 ? String($0) : String(String.UnicodeScalarView($0.unicodeScalars.prefix(16)))
        }.joined()
        var text = tamed.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count > self.characters.upperBound { text = String(text.prefix(self.characters.upperBound)) }
        while text.utf8.count > self.bytes { text.removeLast() }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.count >= max(self.characters.lowerBound, 1) ? text : nil
    }

    /// What a refusal says, for a field's problem.
    public func reason(_ refusal: Refusal) -> String {
        let length =
            "must be \(self.characters.lowerBound)–\(self.characters.upperBound) characters (at most \(self.bytes) bytes in UTF-8) after trimming"
        switch refusal {
        case .tooLong, .tooShort: return length
        case .forbiddenCharacter(let scalar):
            return
                "must not contain control, invisible, private-use or unassigned characters (found \(String(format: "U+%04X", scalar.value)))"
        case .invisible:
            return "must contain something that can be seen, not only blank characters"
        }
    }

    func allows(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control: return self.multiline && (scalar == "\n" || scalar == "\t" || scalar == "\r")
        case .format: return scalar.value == 0x200C || scalar.value == 0x200D
        case .lineSeparator, .paragraphSeparator: return self.multiline
        case .surrogate, .privateUse: return false
        case .unassigned:
            // New emoji land in the pictographic planes before the server's Unicode tables know them; any
            // other unassigned code point draws nothing.
            return (0x1F000...0x1FAFF).contains(scalar.value)
        default:
            // Noncharacters, and the Hangul fillers (letters by category, blanks on screen).
            return !scalar.properties.isNoncharacterCodePoint
                && ![0x115F, 0x1160, 0x3164, 0xFFA0].contains(scalar.value)
        }
    }
}

extension Validator {
    /// Checks `raw` against `rule`; the text as stored, or `nil` after recording why it was refused.
    public mutating func text(_ raw: String, _ field: String, _ rule: TextRule) -> String? {
        switch rule.cleaned(raw) {
        case .success(let text): return text
        case .failure(let refusal):
            self.fail(field, rule.reason(refusal))
            return nil
        }
    }
}
