/// One step of the schema. The list in `Migrations.all` is append-only: never edit a released step.
struct Migration: Sendable {
    var version: Int
    var name: String
    var statements: [Statement]
    /// Work in Swift after the statements, in the same transaction (what SQL cannot compute, such as a
    /// rule of `FitCircleCore` over existing rows); it reports progress as it goes.
    var backfill: (@Sendable (Transaction, _ progress: @Sendable (String) -> Void) async throws -> Void)? = nil

    /// A statement with its SQLite and PostgreSQL texts; most are the same, and a step one database does not
    /// need is `nil` there.
    struct Statement: Sendable {
        var sqlite: String?
        var postgres: String?

        init(_ both: String) {
            self.sqlite = both
            self.postgres = both
        }

        init(sqlite: String?, postgres: String?) {
            self.sqlite = sqlite
            self.postgres = postgres
        }

        func text(for dialect: Store.Dialect) -> String? {
            switch dialect {
            case .sqlite: self.sqlite
            case .postgres: self.postgres
            }
        }
    }
}
