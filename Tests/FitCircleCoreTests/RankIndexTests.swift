import FitCircleCore
import FitCircleTesting
import Foundation
import Testing

/// The board order (ties: who got there first) and the rank index against a sorted array.
struct RankIndexTests {
    static func key(_ user: String, _ value: Double, _ at: TimeInterval) -> BoardKey {
        BoardKey(value: value, reachedAt: Date(timeIntervalSince1970: at), user: User.ID(user))
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
        for step in 0..<3_000 {
            let user = "u\(Int.random(in: 0..<300, using: &random))"
            if Int.random(in: 0..<10, using: &random) == 0 {
                index.remove(User.ID(user))
                truth[user] = nil
            } else {
                // Few distinct values, so ties are common.
                let key = Self.key(user, Double(Int.random(in: 0..<20, using: &random)) * 500, TimeInterval(step))
                index.upsert(key)
                truth[user] = key
            }
        }
        let sorted = truth.values.sorted()
        #expect(index.count == sorted.count)
        #expect(index.entries(ranks: 1...sorted.count) == sorted)
        for (position, key) in sorted.enumerated() {
            #expect(index.rank(of: key.user) == position + 1)
        }
    }
}
