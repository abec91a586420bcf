public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of idempotency keys and their kept answers.
    public var idempotency: IdempotencyQueries { IdempotencyQueries(tx: self) }
}

public struct IdempotencyQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// Claims `key` for a request with `hash`. Returns what was there before: `nil` when the key is new (or
    /// its old use expired before `expiredBefore`, or its request never finished and was abandoned before
    /// `abandonedBefore`), else the earlier request's record.
    public func claim(
        _ key: String,
        of user: User.ID,
        hash: String,
        at now: Date,
        expiredBefore: Date,
        abandonedBefore: Date
    ) async throws -> IdempotencyRecord? {
        try await self.sql.raw(
            """
            DELETE FROM idempotency_keys
            WHERE user_id = \(bind: user.rawValue) AND idempotency_key = \(bind: key)
                AND (created_at < \(bind: expiredBefore) OR (status_code IS NULL AND created_at < \(bind: abandonedBefore)))
            """
        ).run()
        let inserted =
            try await self.sql.raw(
                """
                INSERT INTO idempotency_keys (user_id, idempotency_key, request_hash, created_at)
                VALUES (\(bind: user.rawValue), \(bind: key), \(bind: hash), \(bind: now))
                ON CONFLICT (user_id, idempotency_key) DO NOTHING
                RETURNING idempotency_key
                """
            ).first() != nil
        if inserted { return nil }
        guard
            let row = try await self.sql.raw(
                "SELECT * FROM idempotency_keys WHERE user_id = \(bind: user.rawValue) AND idempotency_key = \(bind: key)"
            ).first()
        else { throw StoreError.conflict }
        let body = try row.decode(column: "body", as: String?.self)
        return IdempotencyRecord(
            requestHash: try row.decode(column: "request_hash", as: String.self),
            statusCode: try row.decode(column: "status_code", as: Int?.self),
            contentType: try row.decode(column: "content_type", as: String?.self),
            body: body.flatMap { Data(base64Encoded: $0) }
        )
    }

    /// Records the response of the request that claimed `key`.
    public func complete(
        _ key: String,
        of user: User.ID,
        statusCode: Int,
        contentType: String?,
        body: Data
    ) async throws {
        try await self.sql.raw(
            """
            UPDATE idempotency_keys SET status_code = \(bind: statusCode), content_type = \(bind: contentType),
                body = \(bind: body.base64EncodedString())
            WHERE user_id = \(bind: user.rawValue) AND idempotency_key = \(bind: key)
            """
        ).run()
    }

    /// Forgets up to `limit` keys first used before `createdBefore`; answers how many.
    public func purge(createdBefore: Date, limit: Int) async throws -> Int {
        try await self.sql.raw(
            """
            DELETE FROM idempotency_keys WHERE (user_id, idempotency_key) IN
                (SELECT user_id, idempotency_key FROM idempotency_keys WHERE created_at < \(bind: createdBefore) LIMIT \(bind: limit))
            RETURNING idempotency_key
            """
        ).all().count
    }

    /// Forgets a claimed key whose request failed on the server's side, so a retry runs again.
    public func release(_ key: String, of user: User.ID) async throws {
        try await self.sql.raw(
            "DELETE FROM idempotency_keys WHERE user_id = \(bind: user.rawValue) AND idempotency_key = \(bind: key)"
        ).run()
    }
}

/// What a key was first used for and, once that request finished, its response.
public struct IdempotencyRecord: Equatable, Sendable {
    public var requestHash: String
    public var statusCode: Int?
    public var contentType: String?
    public var body: Data?
}
