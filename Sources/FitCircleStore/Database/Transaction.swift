public import FitCircleCore
import Foundation
import SQLKit
import Synchronization

/// Everything a use case may read or write inside one transaction, grouped by feature in extensions
/// (`Transaction+Users.swift`, `Transaction+Sessions.swift`, …). Values are always bound, never concatenated.
public struct Transaction: Sendable {
    let sql: any SQLDatabase
    let dialect: Store.Dialect
    /// Where `notify` sends (the database schema's channel).
    let channel: String
    /// The node this runs on, as its messages name it.
    let node: String
    /// What this transaction changed of what the store's cache holds; forgotten there once it ends.
    let changes: ChangeLog
    let hooks: CommitHooks
    /// Whether this is a transaction that may write (`Store.transaction`), not a plain read (`Store.read`).
    public let writes: Bool

    /// Serialises concurrent use cases of one user: later ones wait until this transaction ends. SQLite's
    /// single writer already does; PostgreSQL needs a row lock, or two requests could each recompute a day
    /// without the other's event.
    public func lockUser(_ user: User.ID) async throws {
        _ = try await self.users.locked(user)
    }

    /// Runs `action` on this node once the transaction has committed (never if it rolls back): what
    /// this node's memory learns of a write (a board's index, its live streams) only after it is durable.
    public func afterCommit(_ action: @escaping @Sendable () -> Void) {
        self.hooks.add(action)
    }
}

/// What a transaction asked to run after its commit.
final class CommitHooks: Sendable {
    private let actions = Mutex<[@Sendable () -> Void]>([])

    func add(_ action: @escaping @Sendable () -> Void) {
        self.actions.withLock { $0.append(action) }
    }

    func run() {
        for action in self.actions.withLock({ actions in
            defer { actions = [] }
            return actions
        }) { action() }
    }
}

extension Transaction {
    /// Notes a change of what the store's cache may hold: this node forgets it when the transaction
    /// commits, and on PostgreSQL the other nodes hear of it in the same commit.
    func changed(_ tags: CacheTag...) async throws {
        try await self.changed(tags)
    }

    func changed(_ tags: [CacheTag]) async throws {
        for message in CacheTag.messages(self.changes.record(tags), from: self.node) { try await self.notify(message) }
    }

    /// The one number a `SELECT COUNT(*) AS n …` answers.
    func count(_ query: SQLQueryString) async throws -> Int {
        try await self.sql.raw(query).first()?.decode(column: "n", as: Int.self) ?? 0
    }

    /// A local-date column (ISO text on both databases).
    static func date(_ row: any SQLRow, _ column: String) throws -> LocalDate {
        let text = try row.decode(column: column, as: String.self)
        guard let date = LocalDate(iso: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(column) holds '\(text)'"))
        }
        return date
    }
}
