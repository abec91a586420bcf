public import FitCircleCore
public import FitCircleStore
import Foundation

/// Reads one board: from this node's index when it holds the board, else from SQL (exact either way). A
/// board not loaded yet starts loading in the background, so the next read is served from memory. Each SQL
/// read is a statement of its own, as the store's reads are: a warm read takes no connection at all.
struct BoardReader: Sendable {
    let board: BoardID
    let indexes: BoardIndexes
    let store: Store

    /// Whether the index answers (when false, SQL does).
    var fromIndex: Bool { self.indexes.read(self.board) { _ in true } ?? false }

    func count() async throws -> Int {
        if let count = self.indexes.read(self.board, { $0.count }) { return count }
        return try await self.store.read { [board] in try await $0.boards.count(board) }
    }

    func key(of user: User.ID) async throws -> BoardKey? {
        if let found = self.indexes.read(self.board, { $0.key(of: user) }) { return found }
        return try await self.store.read { [board] in try await $0.boards.score(on: board, of: user) }
    }

    func rank(of key: BoardKey) async throws -> Int {
        if let before = self.indexes.read(self.board, { $0.countBefore(key) }) { return before + 1 }
        return try await self.store.read { [board] in try await $0.boards.countBefore(key, on: board) } + 1
    }

    /// Ranks `lower...upper` (clamped to the board), with the key of one of them to find the others by in SQL.
    func ranks(_ lower: Int, through upper: Int, around key: BoardKey, at rank: Int) async throws -> [(
        rank: Int, key: BoardKey
    )] {
        if let entries = self.indexes.read(self.board, { $0.entries(ranks: lower...upper) }) {
            return entries.enumerated().map { (max(1, lower) + $0.offset, $0.element) }
        }
        let (above, below) = try await self.store.read { [board] tx in
            (
                try await tx.boards.keys(board, before: key, limit: rank - lower),
                try await tx.boards.keys(board, after: key, limit: upper - rank)
            )
        }
        return (above + [key] + below).enumerated().map { (rank - above.count + $0.offset, $0.element) }
    }

    /// The first `limit` rows, or the `limit` after `cursor`.
    func page(after cursor: BoardKey?, limit: Int) async throws -> [(rank: Int, key: BoardKey)] {
        if let cursor {
            if let (first, keys) = self.indexes.read(self.board, { $0.entries(after: cursor, limit: limit) }) {
                return keys.enumerated().map { (first + $0.offset, $0.element) }
            }
            return try await self.store.read { [board] tx in
                let keys = try await tx.boards.keys(board, after: cursor, limit: limit)
                guard let head = keys.first else { return [] }
                let first = try await tx.boards.countBefore(head, on: board) + 1
                return keys.enumerated().map { (first + $0.offset, $0.element) }
            }
        }
        if let keys = self.indexes.read(self.board, { $0.entries(ranks: 1...max(1, limit)) }) {
            return keys.enumerated().map { ($0.offset + 1, $0.element) }
        }
        return try await self.store.read { [board] in try await $0.boards.keys(board, after: nil, limit: limit) }
            .enumerated().map { ($0.offset + 1, $0.element) }
    }

    /// Starts loading the board into this node's index unless it is there or on its way.
    func loadInBackground() {
        guard self.indexes.beginLoading(self.board) else { return }
        let (board, indexes, store) = (self.board, self.indexes, self.store)
        Task {
            do {
                indexes.finishLoading(board, keys: try await store.read { try await $0.boards.keys(board) })
            } catch {
                indexes.drop(board)
            }
        }
    }
}
