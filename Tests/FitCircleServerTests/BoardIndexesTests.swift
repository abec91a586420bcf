import FitCircleCore
import FitCircleEngine
import Foundation
import Testing

/// This node's board indexes: changes during a load are kept, and memory stays within its bound by
/// letting the boards read least recently go.
struct BoardIndexesTests {
    static func board(_ name: String) -> BoardID {
        BoardID(circle: FitCircle.ID(name), period: .weekly, start: LocalDate(year: 2026, month: 3, day: 2)!)
    }

    static func keys(_ count: Int, prefix: String) -> [BoardKey] {
        (0..<count).map { BoardKey(value: Double($0), reachedMilliseconds: 0, user: User.ID("\(prefix)\($0)")) }
    }

    @Test func changesArrivingDuringALoadAreLaidOverIt() {
        let indexes = BoardIndexes()
        let board = Self.board("a")
        #expect(indexes.beginLoading(board) && !indexes.beginLoading(board))
        #expect(indexes.read(board, \.count) == nil)
        indexes.apply([
            BoardChange(
                board: board,
                user: User.ID("late"),
                key: BoardKey(value: 99, reachedMilliseconds: 5, user: User.ID("late"))
            )
        ])
        indexes.finishLoading(board, keys: Self.keys(3, prefix: "m"))
        #expect(indexes.read(board) { $0.rank(of: User.ID("late")) } == 1)
        #expect(indexes.read(board, \.count) == 4)
    }

    @Test func pastItsBoundTheBoardsReadLeastRecentlyGo() {
        let indexes = BoardIndexes(maximumEntries: 10)
        let (a, b, c) = (Self.board("a"), Self.board("b"), Self.board("c"))
        for (board, name) in [(a, "a"), (b, "b")] {
            _ = indexes.beginLoading(board)
            indexes.finishLoading(board, keys: Self.keys(4, prefix: name))
        }
        _ = indexes.read(a, \.count)  // A is read after B
        _ = indexes.beginLoading(c)
        indexes.finishLoading(c, keys: Self.keys(4, prefix: "c"))
        #expect(Set(indexes.loaded) == [a, c])
        #expect(indexes.beginLoading(b))  // B loads again on its next read
    }
}
