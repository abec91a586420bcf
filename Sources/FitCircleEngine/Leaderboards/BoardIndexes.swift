public import FitCircleCore
import Foundation
import Synchronization

/// This node's in-memory rank indexes, one per live board it has been asked about. A board is loaded on
/// first use in the background while that first read answers from SQL; writes on any node reach it as
/// `BoardChange`s (after commit here, through the database's notifications from elsewhere). Changes that
/// arrive while a board loads are kept and laid over the loaded rows, so none is lost in between. Memory is
/// bounded: past `maximumEntries` in all, the boards read least recently are let go (they load again on
/// their next read).
public final class BoardIndexes: Sendable {
    private enum Slot {
        case loading(pending: [BoardChange])
        case ready(RankIndex)
    }

    private struct State {
        var slots: [BoardID: Slot] = [:]
        /// A tick per read, so the boards read least recently can be found.
        var lastRead: [BoardID: UInt64] = [:]
        var tick: UInt64 = 0
        /// Each loaded board's version: the count of changes to any board when it last changed, so a version
        /// is never given twice, not even to a board dropped and loaded again (`version(of:)`).
        var versions: [BoardID: UInt64] = [:]
        var changes: UInt64 = 0
        /// Each circle's live boards when `retain` last looked.
        var live: [FitCircle.ID: [BoardID]] = [:]

        mutating func forget(_ board: BoardID) {
            self.slots[board] = nil
            self.lastRead[board] = nil
            self.versions[board] = nil
        }

        mutating func changed(_ board: BoardID) {
            self.changes += 1
            self.versions[board] = self.changes
        }
    }

    private let state = Mutex(State())
    /// About 100 bytes each (Benchmarks/README.md): the default holds ~200 MB.
    public let maximumEntries: Int

    public init(maximumEntries: Int = 2_000_000) {
        self.maximumEntries = maximumEntries
    }

    /// Runs `body` on the board's index when it is loaded; nil otherwise.
    public func read<Result>(_ board: BoardID, _ body: (RankIndex) -> Result) -> Result? {
        self.state.withLock { state in
            guard case .ready(let index) = state.slots[board] else { return nil }
            state.tick += 1
            state.lastRead[board] = state.tick
            return body(index)
        }
    }

    /// Claims the board for loading; false when it is loaded or being loaded already.
    public func beginLoading(_ board: BoardID) -> Bool {
        self.state.withLock { state in
            guard state.slots[board] == nil else { return false }
            state.slots[board] = .loading(pending: [])
            return true
        }
    }

    /// Installs the rows read from the database, with the changes that came in meanwhile laid over them,
    /// then lets the least recently read boards go while the total is over `maximumEntries`.
    public func finishLoading(_ board: BoardID, keys: [BoardKey]) {
        var index = RankIndex(keys)
        self.state.withLock { state in
            if case .loading(let pending) = state.slots[board] {
                for change in pending { change.apply(to: &index) }
            }
            state.slots[board] = .ready(index)
            state.changed(board)
            state.tick += 1
            state.lastRead[board] = state.tick
            var total = state.slots.values.reduce(0) { total, slot in
                if case .ready(let loaded) = slot { total + loaded.count } else { total }
            }
            while total > self.maximumEntries,
                let oldest = state.lastRead.filter({ $0.key != board }).min(by: { $0.value < $1.value })?.key,
                case .ready(let loaded) = state.slots[oldest]
            {
                total -= loaded.count
                state.forget(oldest)
            }
        }
    }

    /// Forgets a board that failed to load (the next read tries again) or that closed.
    public func drop(_ board: BoardID) {
        self.state.withLock { $0.forget(board) }
    }

    /// Drops the boards of `circle` other than `live` (periods that closed). Every board read asks, so the
    /// boards are looked through only when a circle's live boards are not the ones seen last (a period closed).
    public func retain(_ live: [BoardID], of circle: FitCircle.ID) {
        self.state.withLock { state in
            guard state.live[circle] != live else { return }
            state.live[circle] = live
            for board in state.slots.keys where board.owner == .circle(circle) && !live.contains(board) {
                state.forget(board)
            }
        }
    }

    /// Drops every board of `circle` (a refresh reloads them).
    public func drop(circle: FitCircle.ID) {
        self.state.withLock { state in
            state.live[circle] = nil
            for board in state.slots.keys where board.owner == .circle(circle) { state.forget(board) }
        }
    }

    public func apply(_ changes: [BoardChange]) {
        self.state.withLock { state in
            for change in changes {
                switch state.slots[change.board] {
                case .ready(var index):
                    state.slots[change.board] = nil  // keeps the index uniquely referenced: no copy on write
                    change.apply(to: &index)
                    state.slots[change.board] = .ready(index)
                    state.changed(change.board)
                case .loading(var pending):
                    pending.append(change)
                    state.slots[change.board] = .loading(pending: pending)
                case nil:
                    continue
                }
            }
        }
    }

    /// The loaded board's version, which moves on with every change applied to it; nil when it is not
    /// loaded. What was read from the index after reading its version is at least that new.
    public func version(of board: BoardID) -> UInt64? {
        self.state.withLock { $0.versions[board] }
    }

    /// The boards loaded now.
    public var loaded: [BoardID] {
        self.state.withLock { state in
            state.slots.compactMap { board, slot in if case .ready = slot { board } else { nil } }
        }
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
