public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of sessions and their refresh tokens.
    public var sessions: SessionQueries { SessionQueries(tx: self) }
}

public struct SessionQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    public func insert(_ session: Session) async throws {
        try await self.sql.raw(
            """
            INSERT INTO sessions (id, user_id, created_at)
            VALUES (\(bind: session.id.rawValue), \(bind: session.userID.rawValue), \(bind: session.createdAt))
            """
        ).run()
    }

    public func session(_ id: Session.ID) async throws -> Session? {
        try await self.sql.raw("SELECT * FROM sessions WHERE id = \(bind: id.rawValue)").first().map { row in
            Session(
                id: Session.ID(try row.decode(column: "id", as: String.self)),
                userID: User.ID(try row.decode(column: "user_id", as: String.self)),
                createdAt: try row.decode(column: "created_at", as: Date.self),
                revokedAt: try row.decode(column: "revoked_at", as: Date?.self)
            )
        }
    }

    /// A session together with its account, in one query: what every authenticated request needs.
    public func sessionAndUser(_ id: Session.ID) async throws -> (session: Session, user: User)? {
        guard
            let row = try await self.sql.raw(
                """
                SELECT users.*, sessions.created_at AS session_created_at, sessions.revoked_at AS session_revoked_at
                FROM sessions JOIN users ON users.id = sessions.user_id WHERE sessions.id = \(bind: id.rawValue)
                """
            ).first()
        else { return nil }
        let user = try Transaction.user(from: row)
        let session = Session(
            id: id,
            userID: user.id,
            createdAt: try row.decode(column: "session_created_at", as: Date.self),
            revokedAt: try row.decode(column: "session_revoked_at", as: Date?.self)
        )
        return (session, user)
    }

    /// Revokes a session and so every refresh token of its family; a revoked session stays revoked.
    public func revoke(_ session: Session.ID, reason: String, at now: Date) async throws {
        try await self.sql.raw(
            """
            UPDATE sessions SET revoked_at = \(bind: now), revoked_reason = \(bind: reason)
            WHERE id = \(bind: session.rawValue) AND revoked_at IS NULL
            """
        ).run()
        try await self.tx.changed(.session(session))
    }

    public func insert(_ token: RefreshTokenRecord) async throws {
        try await self.sql.raw(
            """
            INSERT INTO refresh_tokens (token_hash, session_id, issued_at, expires_at)
            VALUES (\(bind: token.tokenHash), \(bind: token.sessionID.rawValue), \(bind: token.issuedAt), \(bind: token.expiresAt))
            """
        ).run()
    }

    public func refreshToken(hash: String) async throws -> RefreshTokenRecord? {
        try await self.sql.raw("SELECT * FROM refresh_tokens WHERE token_hash = \(bind: hash)").first().map { row in
            RefreshTokenRecord(
                tokenHash: try row.decode(column: "token_hash", as: String.self),
                sessionID: Session.ID(try row.decode(column: "session_id", as: String.self)),
                issuedAt: try row.decode(column: "issued_at", as: Date.self),
                expiresAt: try row.decode(column: "expires_at", as: Date.self),
                usedAt: try row.decode(column: "used_at", as: Date?.self)
            )
        }
    }

    /// Marks a refresh token used; `false` when it already was (two requests raced with the same token).
    public func markUsed(refreshTokenHash hash: String, at now: Date) async throws -> Bool {
        try await self.sql.raw(
            """
            UPDATE refresh_tokens SET used_at = \(bind: now)
            WHERE token_hash = \(bind: hash) AND used_at IS NULL
            RETURNING token_hash
            """
        ).first() != nil
    }

    /// Records a web sign-in's nonce (its hash) as used until `expiresAt`; false when it was used before.
    public func consumeSignInNonce(hash: String, until expiresAt: Date) async throws -> Bool {
        try await self.sql.raw(
            """
            INSERT INTO used_sign_in_nonces (nonce_hash, expires_at) VALUES (\(bind: hash), \(bind: expiresAt))
            ON CONFLICT (nonce_hash) DO NOTHING
            RETURNING nonce_hash
            """
        ).first() != nil
    }

    /// Whether a web sign-in's nonce (its hash) was used.
    public func isSignInNonceUsed(hash: String) async throws -> Bool {
        try await self.sql.raw("SELECT 1 AS used FROM used_sign_in_nonces WHERE nonce_hash = \(bind: hash)").first()
            != nil
    }

    /// Forgets up to `limit` nonces whose tokens have expired (housekeeping); answers how many.
    public func purgeSignInNonces(expiredBefore now: Date, limit: Int) async throws -> Int {
        try await self.sql.raw(
            """
            DELETE FROM used_sign_in_nonces WHERE nonce_hash IN
                (SELECT nonce_hash FROM used_sign_in_nonces WHERE expires_at < \(bind: now) LIMIT \(bind: limit))
            RETURNING nonce_hash
            """
        ).all().count
    }
}
