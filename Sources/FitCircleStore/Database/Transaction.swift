public import FitCircleCore
import Foundation
import SQLKit

/// Everything a use case may read or write inside one transaction, grouped by feature in extensions
/// (`Transaction+Users.swift`, `Transaction+Sessions.swift`, …). Values are always bound, never concatenated.
public struct Transaction: Sendable {
    let sql: any SQLDatabase
    let dialect: Store.Dialect

    /// Serialises concurrent use cases of one user: later ones wait until this transaction ends. SQLite's
    /// single writer already does; PostgreSQL needs a row lock, or two requests could each recompute a day
    /// without the other's event.
    public func lockUser(_ user: User.ID) async throws {
        _ = try await self.lockedUser(user)
    }
}

extension Transaction {
    /// A local-date column (ISO text on both databases).
    static func date(_ row: any SQLRow, _ column: String) throws -> LocalDate {
        let text = try row.decode(column: column, as: String.self)
        guard let date = LocalDate(iso: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(column) holds '\(text)'"))
        }
        return date
    }
}
