import Foundation
import PostgresNIO
import SQLKit

/// Messages between the server processes that share one PostgreSQL database (`LISTEN`/`NOTIFY`). A
/// message sent in a transaction goes out when it commits, to every listener, the sender included; on
/// SQLite there is one process, and nothing goes out.
extension Store {
    /// The channel of this database's schema (`eventChannel`), so tests in other schemas of the same
    /// database hear nothing.
    static func channel(of location: DatabaseLocation) -> String {
        guard case .postgres(let target) = location else { return "fitcircle_events" }
        let schema = (target.schema ?? "public").lowercased().filter { $0.isLetter || $0.isNumber || $0 == "_" }
        return "fitcircle_events_\(schema)"
    }

    /// Hands each message of the channel to `onEach` until the task is cancelled (returns at once on
    /// SQLite), but for the store's own (what changed: it leaves this node's `StoreCache`, which serves only
    /// while this runs). Keeps one pooled connection for itself.
    public func listen(_ onEach: @escaping @Sendable (String) async -> Void) async throws {
        guard case .postgres(let client, _) = self.backend else { return }
        let channel = self.eventChannel
        try await client.withConnection { connection in
            try await connection.listen(on: channel) { messages in
                self.cache.listening(true)
                defer { self.cache.listening(false) }
                for try await message in messages {
                    if let (node, tags) = CacheTag.tags(in: message.payload) {
                        if node != self.cache.node { self.cache.forget(tags) }
                    } else {
                        await onEach(message.payload)
                    }
                }
            }
        }
    }
}

extension Transaction {
    /// Sends `payload` (at most 8,000 bytes) on the store's channel when the transaction commits; nothing on SQLite.
    public func notify(_ payload: String) async throws {
        guard self.dialect == .postgres else { return }
        try await self.sql.raw("SELECT pg_notify(\(bind: self.channel), \(bind: payload))").run()
    }
}
