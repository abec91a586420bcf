public import FitCircleCore
import Foundation
import Synchronization

/// This node's in-memory rank indexes, one per live board it has been asked about. A board is loaded on
/// first use in the background while that first read answers from SQL; writes on any node reach it as
/// `BoardChange`s (after commit here, through the database's notifications from elsewhere). Changes that
/// arrive while a board loads are kept and laid over the loaded rows, so none is lost in between.
public final class BoardIndexes: Sendable {
    private enum Slot {
        case loading(pending: [BoardChange])
        case ready(RankIndex)
    }

    private let slots = Mutex<[BoardID: Slot]>([:])

    public init() {}

    /// Runs `body` on the board's index when it is loaded; nil otherwise.
    public func read<Result>(_ board: BoardID, _ body: (borrowing RankIndex) -> Result) -> Result? {
        self.slots.withLock { slots in
            guard case .ready(let index) = slots[board] else { return nil }
            return body(index)
        }
    }

    /// Claims the board for loading; false when it is loaded or being loaded already.
    public func beginLoading(_ board: BoardID) -> Bool {
        self.slots.withLock { slots in
            guard slots[board] == nil else { return false }
            slots[board] = .loading(pending: [])
            return true
        }
    }

    /// Installs the rows read from the database, with the changes that came in meanwhile laid over them.
    public func finishLoading(_ board: BoardID, keys: [BoardKey]) {
        var index = RankIndex()
        for key in keys { index.upsert(key) }
        self.slots.withLock { slots in
            if case .loading(let pending) = slots[board] {
                for change in pending { change.apply(to: &index) }
            }
            slots[board] = .ready(index)
        }
    }

    /// Forgets a board that failed to load (the next read tries again) or that closed.
    public func drop(_ board: BoardID) {
        _ = self.slots.withLock { $0.removeValue(forKey: board) }
    }

    /// Drops the boards of `circle` other than `live` (periods that closed).
    public func retain(_ live: [BoardID], of circle: FitCircle.ID) {
        self.slots.withLock { slots in
            for board in slots.keys where board.circle == circle && !live.contains(board) { slots[board] = nil }
        }
    }

    /// Drops every board of `circle` (a refresh reloads them).
    public func drop(circle: FitCircle.ID) {
        self.slots.withLock { slots in
            for board in slots.keys where board.circle == circle { slots[board] = nil }
        }
    }

    public func apply(_ changes: [BoardChange]) {
        self.slots.withLock { slots in
            for change in changes {
                switch slots[change.board] {
                case .ready(var index):
                    slots[change.board] = nil  // keeps the index uniquely referenced: no copy on write
                    change.apply(to: &index)
                    slots[change.board] = .ready(index)
                case .loading(var pending):
                    pending.append(change)
                    slots[change.board] = .loading(pending: pending)
                case nil:
                    continue
                }
            }
        }
    }

    /// The boards loaded now.
    public var loaded: [BoardID] {
        self.slots.withLock { slots in slots.compactMap { board, slot in if case .ready = slot { board } else { nil } } }
    }
}

/// A member's new place on one board (nil: off the board), as every node applies it.
public struct BoardChange: Equatable, Sendable, Codable {
    public var board: BoardID
    public var user: User.ID
    public var key: BoardKey?

    public init(board: BoardID, user: User.ID, key: BoardKey?) {
        self.board = board
        self.user = user
        self.key = key
    }

    func apply(to index: inout RankIndex) {
        if let key { index.upsert(key) } else { index.remove(self.user) }
    }
}
