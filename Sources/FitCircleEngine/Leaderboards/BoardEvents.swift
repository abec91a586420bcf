public import FitCircleCore
public import FitCircleStore
import Foundation
public import Logging
import Synchronization

/// What changed on a circle's or a challenge's boards (and a circle's feed), as its live streams and every
/// node's rank indexes hear of it.
public struct BoardEvent: Equatable, Sendable, Codable {
    public var owner: BoardOwner
    /// The node that made the change (it applied it already; it skips its own message).
    public var origin: String
    public var changes: [BoardChange]
    public var ranks: [RankUpdate]
    public var feed: [FeedItem]
}

extension BoardEvent {
    /// The event cut into events of at most `size` changes, rank updates and feed items each.
    func parts(of size: Int) -> [BoardEvent] {
        let count = max(self.changes.count, self.ranks.count, self.feed.count)
        return stride(from: 0, to: max(count, 1), by: size).map { start in
            func slice<T>(_ all: [T]) -> [T] { Array(all.dropFirst(start).prefix(size)) }
            return BoardEvent(
                owner: self.owner,
                origin: self.origin,
                changes: slice(self.changes),
                ranks: slice(self.ranks),
                feed: slice(self.feed)
            )
        }
    }
}

/// A member's new place on one board.
public struct RankUpdate: Equatable, Sendable, Codable {
    public var period: BoardPeriod
    public var periodStart: LocalDate
    public var user: User.ID
    public var value: Double?
    /// Set as a stream tells it, on boards of kilograms lost (`Circles.LeaderboardRow.percentOfGoal`).
    public var percentOfGoal: Double?
    public var rank: Int?
    public var previousRank: Int?
}

/// Carries board events (of circles and challenges) to this node's streams and, on PostgreSQL, to the other nodes: an event is sent
/// with `NOTIFY` in the transaction that made it (so it goes out only if that commits) and applied here
/// right after the commit; each node's listener applies the others' events to its own indexes and streams.
public final class BoardEvents: Sendable {
    let node = UUID().uuidString
    public let indexes: BoardIndexes
    private let subscribers = Mutex<[BoardOwner: [UUID: AsyncStream<BoardEvent>.Continuation]]>([:])

    public init(indexes: BoardIndexes) {
        self.indexes = indexes
    }

    func event(_ circle: FitCircle.ID, changes: [BoardChange], ranks: [RankUpdate], feed: [FeedItem]) -> BoardEvent {
        self.event(.circle(circle), changes: changes, ranks: ranks, feed: feed)
    }

    func event(_ owner: BoardOwner, changes: [BoardChange], ranks: [RankUpdate], feed: [FeedItem] = []) -> BoardEvent {
        BoardEvent(owner: owner, origin: self.node, changes: changes, ranks: ranks, feed: feed)
    }

    /// Sends the events to the other nodes in `tx` and applies them here once it commits.
    func announce(_ events: [BoardEvent], in tx: Transaction) async throws {
        guard !events.isEmpty else { return }
        try await self.send(events, in: tx)
        tx.afterCommit { self.publish(events) }
    }

    /// Queues the events for the other nodes in `tx` (nothing on SQLite), in messages small enough for
    /// `NOTIFY` (8,000 bytes): a refresh of a large board corrects hundreds of rows at once.
    func send(_ events: [BoardEvent], in tx: Transaction) async throws {
        for event in events where !event.changes.isEmpty || !event.feed.isEmpty {
            for part in event.parts(of: Self.perMessage) {
                try await tx.notify(String(decoding: try JSONEncoder().encode(part), as: UTF8.self))
            }
        }
    }

    /// Changes, rank updates or feed items per message: each is at most a few hundred bytes.
    static let perMessage = 16

    /// Applies committed events on this node: indexes first, then streams.
    func publish(_ events: [BoardEvent]) {
        for event in events {
            self.indexes.apply(event.changes)
            let continuations = self.subscribers.withLock { Array(($0[event.owner] ?? [:]).values) }
            for continuation in continuations { continuation.yield(event) }
        }
    }

    /// A message heard on the channel: another node's event (this node's own were applied at commit).
    func received(_ payload: String) {
        guard let event = try? JSONDecoder().decode(BoardEvent.self, from: Data(payload.utf8)),
            event.origin != self.node
        else { return }
        self.publish([event])
    }

    /// The listener missed messages (it reconnected): indexes may be behind; the next read loads them afresh.
    func missedMessages() {
        for board in self.indexes.loaded { self.indexes.drop(board) }
    }

    /// How many streams of the board's owner are open on this node.
    public func listeners(of owner: BoardOwner) -> Int {
        self.subscribers.withLock { $0[owner]?.count ?? 0 }
    }

    /// The owner's events from now on, until the stream is dropped.
    public func subscribe(to circle: BoardOwner) -> AsyncStream<BoardEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: BoardEvent.self, bufferingPolicy: .bufferingNewest(256))
        continuation.onTermination = { _ in
            self.subscribers.withLock { subscribers in
                subscribers[circle]?[id] = nil
                if subscribers[circle]?.isEmpty == true { subscribers[circle] = nil }
            }
        }
        self.subscribers.withLock { $0[circle, default: [:]][id] = continuation }
        return stream
    }
}
