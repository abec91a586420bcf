import SQLKit

/// Everything a use case may read or write inside one transaction, grouped by feature in extensions
/// (`Transaction+Users.swift`, `Transaction+Sessions.swift`, …). Values are always bound, never concatenated.
public struct Transaction: Sendable {
    let sql: any SQLDatabase
}
