import FitCircleCore
import Foundation
import Testing

struct TextRuleTests {
    @Test func aCharacterWithAMillionCombiningMarksIsTooLongThoughItIsOneCharacter() {
        let zalgo = "a" + String(repeating: "\u{301}", count: 1_000_000)
        #expect(zalgo.count == 1)
        #expect(TextRule.displayName.cleaned(zalgo) == .failure(.tooLong))
        #expect(TextRule.displayName.fitted(zalgo).map { $0.utf8.count <= 200 } == true)
    }

    @Test func textIsStoredInNFCAndTrimmed() {
        #expect(TextRule.displayName.cleaned("  Ame\u{301}lie\n") == .success("Am\u{E9}lie"))
    }

    @Test(arguments: ["\u{202E}nA", "A\u{200B}na", "\u{FEFF}Ana", "A\u{0}na", "An\na", "Ana\u{2028}Lima"])
    func invisibleAndControlCharactersAreRefusedInNames(_ name: String) {
        guard case .failure(.forbiddenCharacter) = TextRule.displayName.cleaned(name) else {
            Issue.record("\(name.unicodeScalars.map { String($0.value, radix: 16) }) was accepted")
            return
        }
    }

    /// Issue 41: names that look empty or hold what no font draws were accepted.
    @Test(arguments: [0xE000, 0xFFFF, 0xFDD0, 0x0378, 0x3164, 0x115F] as [UInt32])
    func privateUseUnassignedNoncharactersAndFillersAreRefused(_ codePoint: UInt32) throws {
        let name = "An" + String(try #require(Unicode.Scalar(codePoint))) + "a"
        guard case .failure(.forbiddenCharacter) = TextRule.displayName.cleaned(name) else {
            Issue.record("\(name.unicodeScalars.map { String($0.value, radix: 16) }) was accepted")
            return
        }
    }

    @Test func aNameOfBlanksIsRefusedAsInvisible() {
        #expect(TextRule.displayName.cleaned("\u{2800}\u{2800}") == .failure(.invisible))
        #expect(TextRule.displayName.cleaned("\u{2800}A") == .success("\u{2800}A"))
        #expect(TextRule.circleName.cleaned("\u{3000}\u{2800}") == .failure(.invisible))
    }

    @Test func emojiSequencesAndJoinersOfScriptsAreKept() {
        for name in ["👩‍💻 Ana", "🇫🇷 Zoé", "می‌خواهم", "👍🏽"] {
            #expect(TextRule.displayName.cleaned(name) == .success(name))
        }
    }

    @Test func aDescriptionMayHaveLineBreaksButNotOverrides() {
        #expect(TextRule.description.cleaned("Walk at 7.\nBring water.") == .success("Walk at 7.\nBring water."))
        #expect(TextRule.description.cleaned("a\u{202D}b") == .failure(.forbiddenCharacter("\u{202D}")))
        #expect(TextRule.description.cleaned("") == .success(""))
    }

    @Test func fiftyCharactersFitButNotFiftyOne() {
        #expect(
            TextRule.displayName.cleaned(String(repeating: "é", count: 50))
                == .success(String(repeating: "é", count: 50))
        )
        #expect(TextRule.displayName.cleaned(String(repeating: "é", count: 51)) == .failure(.tooLong))
        #expect(TextRule.displayName.fitted(String(repeating: "é", count: 51)) == String(repeating: "é", count: 50))
        #expect(TextRule.displayName.fitted("\u{202E}\u{200B}") == nil)
    }

    @Test func googlesPolylineExampleDecodes() throws {
        let points = try #require(Polyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@"))
        #expect(points.map(\.latitude) == [38.5, 40.7, 43.252])
        #expect(points.map(\.longitude) == [-120.2, -120.95, -126.453])
    }

    @Test(arguments: ["_p~iF", "_p~iF~ps|U_", "abc def", "~~~~~~~~~~~~~~~~~~~~", String(repeating: "?", count: 65_537)])
    func aBrokenOrOversizedPolylineIsRefused(_ text: String) {
        #expect(!Polyline.isValid(text))
    }
}

/// `Base64Fragments`: whatever surrounds a text, some fragment of it is in the base64 of the whole.
struct Base64FragmentsTests {
    @Test func aTextIsFoundInTheBase64OfAnythingHoldingIt() {
        let needle = "019cae6b-6600-71e9-8cbe-530725e21217"
        let fragments = Base64Fragments.of(needle)
        #expect(fragments.count == 3 && fragments.allSatisfy { $0.count >= 44 })
        for before in 0..<6 {
            for after in 0..<4 {
                let whole = String(repeating: "x", count: before) + needle + String(repeating: "y", count: after)
                let encoded = Data(whole.utf8).base64EncodedString()
                #expect(fragments.contains { encoded.contains($0) }, "\(before), \(after)")
            }
        }
        #expect(
            !fragments.contains { Data("019cae6b-6600-71e9-8cbe-530725e21218".utf8).base64EncodedString().contains($0) }
        )
        #expect(Base64Fragments.of("ab").isEmpty)
    }
}
