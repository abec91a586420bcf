import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of the server's secrets.
    public var secrets: SecretQueries { SecretQueries(tx: self) }
}

public struct SecretQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// The secret stored under `name`, creating it from `make()` the first time. Every node of a cluster
    /// reads the same value: the first insert wins and the others read it back.
    public func secret(named name: String, orCreate make: () -> String, at now: Date) async throws -> String {
        try await self.sql.raw(
            """
            INSERT INTO server_secrets (name, secret, created_at) VALUES (\(bind: name), \(bind: make()), \(bind: now))
            ON CONFLICT (name) DO NOTHING
            """
        ).run()
        guard
            let secret = try await self.sql.raw("SELECT secret FROM server_secrets WHERE name = \(bind: name)").first()?
                .decode(column: "secret", as: String.self)
        else {
            throw StoreError.conflict
        }
        return secret
    }
}
