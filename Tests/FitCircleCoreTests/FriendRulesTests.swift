import FitCircleCore
import Testing

/// Finding people by name, and who may reach whom through friendship.
struct FriendRulesTests {
    @Test func aNameIsIndexedByEachWordAndWholeFoldedForCaseAndAccents() {
        let terms = NameSearch.terms(of: "José  Ángel-Ruiz")
        #expect(terms.map(\.text) == ["angel", "jose", "ruiz", "jose angel ruiz"])
        #expect(terms.map(\.whole) == [false, false, false, true])
        #expect(NameSearch.terms(of: "Ana").map(\.text) == ["ana"])
        #expect(
            NameSearch.terms(of: "Ana ana") == [.init(text: "ana", whole: false), .init(text: "ana ana", whole: true)]
        )
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
        for term in ["ang", "angel", "angzzzz", "ang\u{FFFF}", "ang😀"] {
            #expect(term.utf8.lexicographicallyPrecedes(bound.utf8))
        }
        #expect(!"anh".utf8.lexicographicallyPrecedes(bound.utf8))
    }

    @Test func whoBlockedTheCallerDoesNotExistForThem() {
        let blocked = FriendEdge(blockedByThem: true)
        for action in [FriendAccess.Action.find, .request, .notify] {
            #expect(FriendAccess.decide(action, isSelf: false, blocked) == .hidden)
        }
        #expect(FriendAccess.decide(.find, isSelf: false, .strangers) == .allowed)
        #expect(FriendAccess.decide(.request, isSelf: false, .strangers) == .allowed)
        #expect(
            FriendAccess.decide(.request, isSelf: true, .strangers)
                == .forbidden("You cannot send yourself a friend request.")
        )
        #expect(
            FriendAccess.decide(.request, isSelf: false, FriendEdge(blockedByMe: true))
                == .forbidden("You blocked this person; unblock them first.")
        )
        #expect(FriendAccess.decide(.notify, isSelf: false, FriendEdge(blockedByMe: true)) != .allowed)
    }

    @Test func aPendingRequestHasADirection() {
        #expect(FriendEdge(requestedByMe: true).pending == .outgoing)
        #expect(FriendEdge(requestedByThem: true).pending == .incoming)
        #expect(FriendEdge(areFriends: true).pending == nil)
    }
}

/// What the feed shows of an activity.
struct FeedRulesTests {
    @Test func aPrivateActivityIsSeenInNoFeedAndAFriendsOneByFriendsAndItsOwner() {
        #expect(ActivityAccess.mayView(.friends, isSelf: false, isFriend: true))
        #expect(ActivityAccess.mayView(.friends, isSelf: true, isFriend: false))
        #expect(!ActivityAccess.mayView(.friends, isSelf: false, isFriend: false))
        #expect(!ActivityAccess.mayView(.private, isSelf: false, isFriend: true))
        #expect(!ActivityAccess.mayView(.private, isSelf: true, isFriend: false))
    }

    @Test func aRouteThumbnailKeepsTheEndsAndAtMostItsPoints() throws {
        // Google's example route: (38.5, -120.2), (40.7, -120.95), (43.252, -126.453).
        #expect(
            Polyline.encode([(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)]) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
        )
        let long: [(latitude: Double, longitude: Double)] = (0..<500).map { index in
            let step = Double(index)
            return (48.0 + step * 0.0001, 2.0 + step * 0.0002)
        }
        let thumbnail = try #require(Polyline.thumbnail(of: Polyline.encode(long)))
        let points = try #require(Polyline.decode(thumbnail))
        #expect(points.count == 32)
        #expect(points.first?.latitude == 48.0 && abs((points.last?.latitude ?? 0) - 48.0499) < 1e-9)
        #expect(Polyline.thumbnail(of: "not a polyline!") == nil)
        #expect(Polyline.thumbnail(of: "_p~iF~ps|U_ulLnnqC_mqNvxq`@").flatMap(Polyline.decode)?.count == 3)
    }
}
