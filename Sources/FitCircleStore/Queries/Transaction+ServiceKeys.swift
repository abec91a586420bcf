public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of backends' credentials (`service_keys`).
    public var serviceKeys: ServiceKeyQueries { ServiceKeyQueries(tx: self) }
}

public struct ServiceKeyQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// Stores a new key. - Returns: false when a live key already has its name.
    public func insert(_ key: ServiceKey) async throws -> Bool {
        try await self.sql.raw(
            """
            INSERT INTO service_keys (id, name, scopes, secret_hash, created_at)
            VALUES (\(bind: key.id.rawValue), \(bind: key.name), \(bind: Self.text(key.scopes)), \(bind: key.secretHash),
                \(bind: key.createdAt))
            ON CONFLICT DO NOTHING
            RETURNING id
            """
        ).first() != nil
    }

    public func find(_ id: ServiceKey.ID) async throws -> ServiceKey? {
        try await self.sql.raw("SELECT * FROM service_keys WHERE id = \(bind: id.rawValue)").first().map(
            Self.key(from:)
        )
    }

    /// The live key of that name.
    public func find(named name: String) async throws -> ServiceKey? {
        try await self.sql.raw("SELECT * FROM service_keys WHERE name = \(bind: name) AND revoked_at IS NULL").first()
            .map(Self.key(from:))
    }

    /// Every key, revoked ones too, oldest first.
    public func all() async throws -> [ServiceKey] {
        try await self.sql.raw("SELECT * FROM service_keys ORDER BY created_at, id").all().map(Self.key(from:))
    }

    /// A new secret; the one it replaces stays valid until `until`.
    public func rotate(_ id: ServiceKey.ID, to hash: String, previousValidUntil until: Date, at now: Date) async throws
    {
        try await self.sql.raw(
            """
            UPDATE service_keys SET previous_secret_hash = secret_hash, previous_valid_until = \(bind: until),
                secret_hash = \(bind: hash), rotated_at = \(bind: now)
            WHERE id = \(bind: id.rawValue) AND revoked_at IS NULL
            """
        ).run()
    }

    public func revoke(_ id: ServiceKey.ID, at now: Date) async throws {
        try await self.sql.raw(
            "UPDATE service_keys SET revoked_at = \(bind: now) WHERE id = \(bind: id.rawValue) AND revoked_at IS NULL"
        ).run()
    }

    /// Notes a use; at most one write a minute a key (a busy backend's every call need not write).
    public func noteUse(_ id: ServiceKey.ID, at now: Date) async throws {
        try await self.sql.raw(
            """
            UPDATE service_keys SET last_used_at = \(bind: now)
            WHERE id = \(bind: id.rawValue) AND (last_used_at IS NULL OR last_used_at < \(bind: now.addingTimeInterval(-60)))
            """
        ).run()
    }

    private static func text(_ scopes: Set<ServiceScope>) -> String {
        scopes.sorted().map(\.rawValue).joined(separator: ",")
    }

    private static func key(from row: any SQLRow) throws -> ServiceKey {
        ServiceKey(
            id: ServiceKey.ID(try row.decode(column: "id", as: String.self)),
            name: try row.decode(column: "name", as: String.self),
            // A scope this version does not know (written by a newer one) opens nothing here.
            scopes: Set(
                try row.decode(column: "scopes", as: String.self).split(separator: ",").compactMap {
                    ServiceScope(rawValue: String($0))
                }
            ),
            secretHash: try row.decode(column: "secret_hash", as: String.self),
            previousSecretHash: try row.decode(column: "previous_secret_hash", as: String?.self),
            previousValidUntil: try row.decode(column: "previous_valid_until", as: Date?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            rotatedAt: try row.decode(column: "rotated_at", as: Date?.self),
            lastUsedAt: try row.decode(column: "last_used_at", as: Date?.self),
            revokedAt: try row.decode(column: "revoked_at", as: Date?.self)
        )
    }
}
