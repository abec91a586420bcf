import Testing

@testable import FitCircleServer

/// `KeptAnswers` serves an answer only at the version it was kept at, asks for the version only when it
/// holds an answer, and holds at most its capacity, the answers read lately surviving.
struct KeptAnswersTests {
    static func answer(_ text: String) -> HotAnswer { HotAnswer(json: Array(text.utf8)) }

    @Test
    func anAnswerIsServedOnlyAtItsVersionAndMemoryIsBounded() async {
        let kept = KeptAnswers<String, Int>(capacity: 4)
        var asked = 0
        #expect(
            await kept.answer(
                "a",
                at: {
                    asked += 1
                    return 1
                }
            ) == nil
        )
        #expect(asked == 0)
        kept.keep(Self.answer("a1"), for: "a", at: 1)
        #expect(await kept.answer("a", at: { 1 })?.json == Array("a1".utf8))
        #expect(await kept.answer("a", at: { 2 }) == nil)
        #expect(kept.answer("a", if: { _ in true }) != nil)
        #expect(await kept.answer("a", at: { nil }) == nil)
        kept.keep(Self.answer("a2"), for: "a", at: 2)
        #expect(await kept.answer("a", at: { 1 }) == nil)
        #expect(await kept.answer("a", at: { 2 })?.json == Array("a2".utf8))

        // Two generations of two: "b" fills the newer, "c" moves both to the older, "d" fills the newer.
        kept.keep(Self.answer("b"), for: "b", at: 1)
        kept.keep(Self.answer("c"), for: "c", at: 1)
        #expect(await kept.answer("a", at: { 2 }) != nil)  // read again: back in the newer (with "c")
        kept.keep(Self.answer("d"), for: "d", at: 1)  // the newer is full: "a" and "c" become the older, "b" goes
        #expect(await kept.answer("b", at: { 1 }) == nil)
        for key in ["a", "c", "d"] { #expect(kept.answer(key, if: { _ in true }) != nil) }
    }
}
