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
