public import FitCircleCore
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
