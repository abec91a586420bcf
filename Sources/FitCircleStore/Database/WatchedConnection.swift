import FitCircleCore
import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit

/// A PostgreSQL connection whose statements cannot wait forever.
///
/// PostgresNIO 1.33 can leave a statement unanswered when its connection dies under it: stopping PostgreSQL
/// while activities were written left statements (an INSERT, the ROLLBACK after a failed SELECT) waiting on
/// a closed socket for good, and with them the transactions, their leases and the activity writer's group
/// commit places — every later write hung. So each statement is watched: it fails as unavailable within a
/// second of its connection closing, and after `deadline` the connection is closed (the database's session
/// goes with it) and the statement fails the same way.
struct WatchedConnection: SQLDatabase {
    private let base: any SQLDatabase
    private let connection: PostgresConnection
    private let deadline: Duration?

    /// How often a running statement checks that its connection is still open.
    static let checkInterval = TimeAmount.seconds(1)

    init(_ connection: PostgresConnection, deadline: Duration?) {
        self.base = connection.sql(queryLogLevel: .trace)
        self.connection = connection
        self.deadline = deadline
    }

    var logger: Logger { self.base.logger }
    var eventLoop: any EventLoop { self.base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { self.base.version }
    var dialect: any SQLDialect { self.base.dialect }
    var queryLogLevel: Logger.Level? { self.base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<
        Void
    > {
        let answer = self.eventLoop.makePromise(of: Void.self)
        // The first completion wins; a statement's late answer after the watch gave up is dropped.
        self.base.execute(sql: query, onRow).cascade(to: answer)
        let connection = self.connection
        let giveUpAt = self.deadline.map { NIODeadline.now() + TimeAmount($0) }
        let watch = self.eventLoop.scheduleRepeatedTask(initialDelay: Self.checkInterval, delay: Self.checkInterval) {
            _ in
            if connection.isClosed {
                answer.fail(ConnectionLost())
            } else if let giveUpAt, NIODeadline.now() >= giveUpAt + Self.checkInterval {
                answer.fail(StoreError.unavailable)  // the close below did not finish either
            } else if let giveUpAt, NIODeadline.now() >= giveUpAt {
                // Slow, not lost: the next statement may well be answered, on another connection once
                // this one is closed (answering before that could lend it again, closing).
                connection.close().whenComplete { _ in answer.fail(StoreError.unavailable) }
            }
        }
        answer.futureResult.whenComplete { _ in watch.cancel() }
        return answer.futureResult
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await self.execute(sql: query, onRow).get()
    }
}

/// A statement's connection closed under it (answered as `StoreError.unavailable`).
struct ConnectionLost: Error {}
