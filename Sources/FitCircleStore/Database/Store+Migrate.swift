import FitCircleCore
public import Foundation
import SQLKit

extension Store {
    /// The schema version this build of FitCircle knows.
    public static var supportedSchemaVersion: Int { Migrations.latestVersion }

    /// Applies every migration the database lacks, each in its own transaction; returns the versions applied.
    /// Throws `StoreError.databaseNewer` (and changes nothing) when a newer FitCircle migrated the database.
    /// A migration's long work (a backfill over every account) reports to `progress`. `upTo` stops at a
    /// version (tests of a migration's backfill).
    @discardableResult
    public func migrate(now: Date, upTo last: Int = .max, progress: @escaping @Sendable (String) -> Void = { _ in })
        async throws -> [Int]
    {
        var applied: [Int] = []
        for migration in Migrations.all where migration.version <= last {
            let didApply = try await self.transaction { tx in
                try await self.lockMigrations(tx)
                let current = try await tx.schemaVersion()
                guard current <= Migrations.latestVersion else {
                    throw StoreError.databaseNewer(found: current, supported: Migrations.latestVersion)
                }
                guard current < migration.version else { return false }
                for statement in migration.statements {
                    guard let text = statement.text(for: self.dialect) else { continue }
                    try await tx.sql.raw(SQLQueryString(text)).run()
                }
                if let backfill = migration.backfill {
                    try await backfill(tx) { progress("migration \(migration.version) (\(migration.name)): \($0)") }
                }
                try await tx.sql.raw(
                    """
                    INSERT INTO schema_migrations (version, name, applied_at)
                    VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: now))
                    """
                ).run()
                return true
            }
            if didApply { applied.append(migration.version) }
        }
        if applied.isEmpty {
            // Nothing to apply still has to refuse a database from the future.
            try await self.checkSchemaVersion()
        }
        return applied
    }

    /// Throws `StoreError.databaseNewer` when the database's schema is newer than this build.
    public func checkSchemaVersion() async throws {
        let current = try await self.transaction { tx in
            try await self.lockMigrations(tx)
            return try await tx.schemaVersion()
        }
        guard current <= Migrations.latestVersion else {
            throw StoreError.databaseNewer(found: current, supported: Migrations.latestVersion)
        }
    }

    /// Nodes starting together on PostgreSQL migrate one at a time; SQLite's single writer already serialises.
    /// Advisory locks are per database: the key names the schema, so deployments sharing a database in
    /// different schemas (and the tests, a few hundred stores at once) do not wait for each other's migrations.
    private func lockMigrations(_ tx: Transaction) async throws {
        if self.dialect == .postgres {
            try await tx.sql.raw("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.fitcircle.migrations'))")
                .run()
        }
        try await tx.sql.raw(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL
            )
            """
        ).run()
    }
}

extension Transaction {
    /// The highest migration applied, 0 for an empty database.
    func schemaVersion() async throws -> Int {
        try await self.sql.raw("SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations").first()?
            .decode(column: "version", as: Int.self) ?? 0
    }
}
