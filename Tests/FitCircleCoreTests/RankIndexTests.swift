import FitCircleCore
import FitCircleTesting
import Foundation
import Testing

/// The board order (ties: who got there first) and the rank index against a sorted array.
struct RankIndexTests {
    static func key(_ user: String, _ value: Double, _ at: TimeInterval) -> BoardKey {
        BoardKey(value: value, reachedAt: Date(timeIntervalSince1970: at), user: User.ID(user))
    }

    /// 3,000 random moves and removals, applied to `index` and to `truth` alike: a member of `members` at a
    /// time, removed one time in `removingOneIn`, else moved to one of few values (ties are common).
    static func move(
        _ index: inout RankIndex,
        _ truth: inout [String: BoardKey],
        members: (prefix: String, count: Int),
        removingOneIn removal: Int,
        values: (count: Int, step: Double),
        using random: inout SeededRandom
    ) {
        for step in 0..<3_000 {
            let user = "\(members.prefix)\(Int.random(in: 0..<members.count, using: &random))"
            if Int.random(in: 0..<removal, using: &random) == 0 {
                index.remove(User.ID(user))
                truth[user] = nil
            } else {
                let key = Self.key(
                    user,
                    Double(Int.random(in: 0..<values.count, using: &random)) * values.step,
                    TimeInterval(step)
                )
                index.upsert(key)
                truth[user] = key
            }
        }
    }

    @Test func equalValuesAreRankedByWhoReachedThemFirstThenByUserID() {
        var index = RankIndex()
        index.upsert(Self.key("carol", 10_000, 300))
        index.upsert(Self.key("bob", 10_000, 100))
        index.upsert(Self.key("alice", 12_000, 500))
        index.upsert(Self.key("dave", 10_000, 100))
        #expect(index.entries(ranks: 1...10).map(\.user.rawValue) == ["alice", "bob", "dave", "carol"])
        #expect(index.rank(of: User.ID("carol")) == 4)
        // Carol walks past everyone; Alice leaves the board.
        index.upsert(Self.key("carol", 12_500, 900))
        index.remove(User.ID("alice"))
        #expect(index.entries(ranks: 1...10).map(\.user.rawValue) == ["carol", "bob", "dave"])
        #expect(index.rank(of: User.ID("alice")) == nil)
        #expect(index.entry(atRank: 4) == nil && index.entries(ranks: 3...9).count == 1)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func anySequenceOfUpdatesRanksAsASortedArrayWould(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var index = RankIndex()
        var truth: [String: BoardKey] = [:]
        Self.move(
            &index,
            &truth,
            members: (prefix: "u", count: 300),
            removingOneIn: 10,
            values: (count: 20, step: 500),
            using: &random
        )
        let sorted = truth.values.sorted()
        #expect(index.count == sorted.count)
        #expect(index.entries(ranks: 1...sorted.count) == sorted)
        for (position, key) in sorted.enumerated() {
            #expect(index.rank(of: key.user) == position + 1)
        }
    }

    /// A board loaded at once (in order, as the database reads it, or not) is the board inserted one by one,
    /// and it goes on taking updates; the members' table keeps finding everyone through removals.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aBoardBuiltAtOnceIsTheBoardInsertedOneByOne(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let keys = (0..<2_000).map { member in
            Self.key(
                "m\(member)",
                Double(Int.random(in: 0..<50, using: &random)) * 100,
                TimeInterval(Int.random(in: 0..<9, using: &random))
            )
        }
        var truth = Dictionary(uniqueKeysWithValues: keys.map { ($0.user.rawValue, $0) })
        for input in [keys.sorted(), keys.shuffled(using: &random)] {
            var index = RankIndex(input)
            #expect(index.count == keys.count)
            #expect(index.entries(ranks: 1...keys.count) == keys.sorted())
            Self.move(
                &index,
                &truth,
                members: (prefix: "m", count: 2_500),
                removingOneIn: 3,
                values: (count: 50, step: 100),
                using: &random
            )
            let sorted = truth.values.sorted()
            #expect(index.count == sorted.count)
            #expect(index.entries(ranks: 1...sorted.count) == sorted)
            #expect(sorted.allSatisfy { index.key(of: $0.user) == $0 })
            truth = Dictionary(uniqueKeysWithValues: keys.map { ($0.user.rawValue, $0) })
        }
    }

    @Test func aMemberGivenTwiceKeepsTheLastKey() {
        let index = RankIndex([Self.key("ana", 5, 1), Self.key("bo", 3, 1), Self.key("ana", 1, 2)])
        #expect(index.count == 2)
        #expect(index.entries(ranks: 1...5).map(\.user.rawValue) == ["bo", "ana"])
        #expect(RankIndex([]).count == 0 && RankIndex([]).entry(atRank: 1) == nil)
    }
}
