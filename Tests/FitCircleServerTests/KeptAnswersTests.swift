import Testing

@testable import FitCircleServer

/// `KeptAnswers` serves an answer only at the version it was kept at, and holds at most its capacity,
/// the answers read lately surviving.
struct KeptAnswersTests {
    static func answer(_ text: String) -> HotAnswer { HotAnswer(json: Array(text.utf8)) }

    @Test
    func anAnswerIsServedOnlyAtItsVersionAndMemoryIsBounded() {
        let kept = KeptAnswers<String, Int>(capacity: 4)
        kept.keep(Self.answer("a1"), for: "a", at: 1)
        #expect(kept.answer("a", at: 1)?.json == Array("a1".utf8))
        #expect(kept.answer("a", at: 2) == nil && kept.holds("a"))
        kept.keep(Self.answer("a2"), for: "a", at: 2)
        #expect(kept.answer("a", at: 1) == nil && kept.answer("a", at: 2)?.json == Array("a2".utf8))

        // Two generations of two: "b" fills the newer, "c" moves both to the older, "d" fills the newer.
        kept.keep(Self.answer("b"), for: "b", at: 1)
        kept.keep(Self.answer("c"), for: "c", at: 1)
        #expect(kept.answer("a", at: 2) != nil)  // read again: back in the newer (with "c")
        kept.keep(Self.answer("d"), for: "d", at: 1)  // the newer is full: "a" and "c" become the older, "b" goes
        #expect(!kept.holds("b"))
        #expect(kept.holds("a") && kept.holds("c") && kept.holds("d"))
    }
}
