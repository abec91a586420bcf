public import FitCircleCore
public import Foundation
import SQLKit

/// Migration sessions of local history (spec 004, R14) and what their batches answered.
extension Transaction {
    /// The queries of history migrations: sessions and what their batches answered (`migration_sessions`).
    public var historyMigrations: HistoryMigrationQueries { HistoryMigrationQueries(tx: self) }
}

public struct HistoryMigrationQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// Opens a session; past `MigrationSession.keptPerUser` the user's oldest goes.
    public func insert(_ session: MigrationSession, of user: User.ID) async throws {
        try await self.sql.raw(
            """
            INSERT INTO migration_sessions (id, user_id, expected, created_at)
            VALUES (\(bind: session.id.rawValue), \(bind: user.rawValue), \(bind: session.expected), \(bind: session.createdAt))
            """
        ).run()
        try await self.sql.raw(
            """
            DELETE FROM migration_sessions WHERE user_id = \(bind: user.rawValue) AND id NOT IN (
                SELECT id FROM migration_sessions WHERE user_id = \(bind: user.rawValue)
                ORDER BY created_at DESC, id DESC LIMIT \(unsafeRaw: String(MigrationSession.keptPerUser)))
            """
        ).run()
    }

    /// The user's session with its counts; nil for another's or none.
    public func session(_ id: MigrationSession.ID, of user: User.ID) async throws -> MigrationSession? {
        guard
            let row = try await self.sql.raw(
                "SELECT * FROM migration_sessions WHERE id = \(bind: id.rawValue) AND user_id = \(bind: user.rawValue)"
            ).first()
        else { return nil }
        var session = MigrationSession(
            id: id,
            createdAt: try row.decode(column: "created_at", as: Date.self),
            expected: try row.decode(column: "expected", as: Int?.self)
        )
        for count in try await self.sql.raw(
            "SELECT outcome, COUNT(*) AS n FROM migration_events WHERE migration_id = \(bind: id.rawValue) GROUP BY outcome"
        ).all() {
            let n = try count.decode(column: "n", as: Int.self)
            session.counts.received += n
            switch MigrationSession.Outcome(rawValue: try count.decode(column: "outcome", as: String.self)) {
            case .accepted: session.counts.accepted = n
            case .duplicate: session.counts.duplicates = n
            case .refused: session.counts.refused = n
            case nil: break
            }
        }
        return session
    }

    /// Notes what a batch answered for each client event. An event already noted keeps its answer (a
    /// resend of an accepted event is a replay, not news) unless that was a refusal, which gives way to
    /// whatever came after it.
    public func note(
        _ outcomes: [(clientEventID: String, outcome: MigrationSession.Outcome)],
        in session: MigrationSession.ID
    ) async throws {
        // One answer per event (a batch may carry an event twice: created, then replayed): the best.
        var best: [String: MigrationSession.Outcome] = [:]
        for (id, outcome) in outcomes where best[id].map({ Self.rank(outcome) > Self.rank($0) }) ?? true {
            best[id] = outcome
        }
        guard !best.isEmpty else { return }
        let rows = best.sorted { $0.key < $1.key }.map { id, outcome in
            SQLQueryString("(\(bind: session.rawValue), \(bind: id), \(bind: outcome.rawValue))")
        }
        try await self.sql.raw(
            """
            INSERT INTO migration_events (migration_id, client_event_id, outcome) VALUES \(SQLList(rows))
            ON CONFLICT (migration_id, client_event_id) DO UPDATE SET outcome = excluded.outcome
            WHERE migration_events.outcome = 'refused'
            """
        ).run()
    }

    private static func rank(_ outcome: MigrationSession.Outcome) -> Int {
        switch outcome {
        case .refused: 0
        case .duplicate: 1
        case .accepted: 2
        }
    }
}
