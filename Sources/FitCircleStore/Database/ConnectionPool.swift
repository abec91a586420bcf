/// A fixed set of connections handed out one caller at a time; callers wait in line when all are busy.
actor ConnectionPool<Connection: Sendable> {
    private var idle: [Connection]
    private var waiters: [CheckedContinuation<Connection, Never>] = []
    let all: [Connection]

    init(_ connections: [Connection]) {
        self.idle = connections
        self.all = connections
    }

    func acquire() async -> Connection {
        if let connection = self.idle.popLast() { return connection }
        return await withCheckedContinuation { self.waiters.append($0) }
    }

    func release(_ connection: Connection) {
        if self.waiters.isEmpty {
            self.idle.append(connection)
        } else {
            self.waiters.removeFirst().resume(returning: connection)
        }
    }
}

extension ConnectionPool {
    /// Runs `body` with a connection of its own and hands the connection back afterwards, whatever happens.
    nonisolated func withConnection<Result: Sendable>(_ body: @Sendable (Connection) async throws -> Result)
        async throws -> Result
    {
        let connection = await self.acquire()
        do {
            let result = try await body(connection)
            await self.release(connection)
            return result
        } catch {
            await self.release(connection)
            throw error
        }
    }
}
