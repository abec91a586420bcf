/// A subscription's events as one reader is told them (the live streams of circles and challenges): `tell`
/// makes what the reader hears of each event, keeping the reader's own `State` between events (who is
/// named how, say); nil ends the stream. It runs in whichever task iterates — the stream's own, in the
/// server's `OpenStreams` — so a stream has no task of its own here: it ends when that task is cancelled,
/// when the subscription ends, or when `tell` says so (issue 42: ten thousand streams, each a few KB less).
public struct ToldEvents<State: Sendable, Update: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Update
    let events: AsyncStream<BoardEvent>
    let state: State
    let tell: @Sendable (inout State, BoardEvent) async -> Update?

    init(
        _ events: AsyncStream<BoardEvent>,
        state: State,
        tell: @escaping @Sendable (inout State, BoardEvent) async -> Update?
    ) {
        self.events = events
        self.state = state
        self.tell = tell
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(events: self.events.makeAsyncIterator(), state: self.state, tell: self.tell)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var events: AsyncStream<BoardEvent>.AsyncIterator
        var state: State
        let tell: @Sendable (inout State, BoardEvent) async -> Update?
        var ended = false

        public mutating func next() async -> Update? {
            guard !self.ended, let event = await self.events.next() else { return nil }
            guard let update = await self.tell(&self.state, event) else {
                self.ended = true
                return nil
            }
            return update
        }
    }
}
