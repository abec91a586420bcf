import FitCircleCore
import Testing

/// Finding people by name, and who may reach whom through friendship.
struct FriendRulesTests {
    @Test func aNameIsIndexedByEachWordAndWholeFoldedForCaseAndAccents() {
        let terms = NameSearch.terms(of: "José  Ángel-Ruiz")
        #expect(terms.map(\.text) == ["angel", "jose", "ruiz", "jose angel ruiz"])
        #expect(terms.map(\.whole) == [false, false, false, true])
        #expect(NameSearch.terms(of: "Ana").map(\.text) == ["ana"])
        #expect(NameSearch.terms(of: "Ana ana") == [.init(text: "ana", whole: false), .init(text: "ana ana", whole: true)])
        #expect(NameSearch.terms(of: "🏃‍♀️").isEmpty)
    }

    @Test func aQueryIsAWordPrefixAWholeNamePrefixOrAnExactAddress() {
        #expect(NameSearch.query("  ÁNG ") == .name(prefix: .init(text: "ang", whole: false)))
        #expect(NameSearch.query("jose an") == .name(prefix: .init(text: "jose an", whole: true)))
        #expect(NameSearch.query("Ana@Example.com ") == .email("ana@example.com"))
        // Fewer than 3 characters once folded searches nothing (spec 004, R15.6).
        #expect(NameSearch.query("ab") == nil)
        #expect(NameSearch.query("a b") == nil)
        #expect(NameSearch.query("--") == nil)
        #expect(NameSearch.query("a@") == nil)
    }

    @Test func everyTermWithThePrefixSortsBelowItsUpperBound() {
        let bound = NameSearch.upperBound(of: "ang")
        for term in ["ang", "angel", "angzzzz", "ang\u{FFFF}", "ang😀"] { #expect(term.utf8.lexicographicallyPrecedes(bound.utf8)) }
        #expect(!"anh".utf8.lexicographicallyPrecedes(bound.utf8))
    }

    @Test func whoBlockedTheCallerDoesNotExistForThem() {
        let blocked = FriendEdge(blockedByThem: true)
        for action in [FriendAccess.Action.find, .request, .notify] {
            #expect(FriendAccess.decide(action, isSelf: false, blocked) == .hidden)
        }
        #expect(FriendAccess.decide(.find, isSelf: false, .strangers) == .allowed)
        #expect(FriendAccess.decide(.request, isSelf: false, .strangers) == .allowed)
        #expect(FriendAccess.decide(.request, isSelf: true, .strangers) == .forbidden("You cannot send yourself a friend request."))
        #expect(FriendAccess.decide(.request, isSelf: false, FriendEdge(blockedByMe: true)) == .forbidden("You blocked this person; unblock them first."))
        #expect(FriendAccess.decide(.notify, isSelf: false, FriendEdge(blockedByMe: true)) != .allowed)
    }

    @Test func aPendingRequestHasADirection() {
        #expect(FriendEdge(requestedByMe: true).pending == .outgoing)
        #expect(FriendEdge(requestedByThem: true).pending == .incoming)
        #expect(FriendEdge(areFriends: true).pending == nil)
    }
}
