import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of the shared rate limits.
    public var rateLimits: RateLimitQueries { RateLimitQueries(tx: self) }
}

public struct RateLimitQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }
    private var dialect: Store.Dialect { self.tx.dialect }

    /// The kept instant of a shared rate limit's key, locked for the rest of the transaction so that every
    /// node's requests of that key take turns; a new key is kept as `now` (a whole quota) first.
    public func lockedArrival(_ key: String, now: Date) async throws -> Date {
        try await self.sql.raw(
            "INSERT INTO rate_limits (limit_key, arrival) VALUES (\(bind: key), \(bind: now)) ON CONFLICT (limit_key) DO NOTHING"
        ).run()
        let lock = self.dialect == .postgres ? " FOR UPDATE" : ""
        guard
            let row = try await self.sql.raw(
                "SELECT arrival FROM rate_limits WHERE limit_key = \(bind: key)\(unsafeRaw: lock)"
            ).first()
        else {
            throw StoreError.conflict
        }
        return try row.decode(column: "arrival", as: Date.self)
    }

    public func setArrival(_ arrival: Date, of key: String) async throws {
        try await self.sql.raw("UPDATE rate_limits SET arrival = \(bind: arrival) WHERE limit_key = \(bind: key)").run()
    }

    /// Forgets up to `limit` keys whose quota is whole again at `now`; answers how many.
    public func purge(restedBy now: Date, limit: Int) async throws -> Int {
        try await self.sql.raw(
            """
            DELETE FROM rate_limits WHERE limit_key IN
                (SELECT limit_key FROM rate_limits WHERE arrival <= \(bind: now) LIMIT \(bind: limit))
            RETURNING limit_key
            """
        ).all().count
    }
}
