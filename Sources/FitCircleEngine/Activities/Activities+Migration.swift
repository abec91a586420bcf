public import FitCircleCore
import FitCircleStore
public import Foundation

/// Moving local history in (spec 004, R14): sessions the app's batches name, and what they answered.
extension Activities {
    public func openMigration(expected: Int?, for user: User.ID) async throws -> MigrationSession {
        var validator = Validator()
        if let expected {
            validator.check(
                (0...MigrationSession.maximumExpected).contains(expected),
                "expected",
                "must be between 0 and \(MigrationSession.maximumExpected)"
            )
        }
        try validator.throwIfInvalid()
        let session = MigrationSession(id: self.ids.make(), createdAt: self.clock.now(), expected: expected)
        try await self.store.transaction { tx in try await tx.historyMigrations.insert(session, of: user) }
        return session
    }

    /// The caller's session with its counts; 404 for anyone else's.
    public func migration(_ id: MigrationSession.ID, of user: User.ID) async throws -> MigrationSession {
        guard let session = try await self.store.read({ tx in try await tx.historyMigrations.session(id, of: user) })
        else {
            throw DomainError.notFound(resource: "migration session", id: id.rawValue)
        }
        return session
    }

    /// Refuses, before anything is recorded, a batch that names a session that is not the caller's.
    public func requireMigration(_ id: MigrationSession.ID, of user: User.ID) async throws {
        guard try await self.store.read({ tx in try await tx.historyMigrations.session(id, of: user) }) != nil else {
            throw ValidationError(field: "migrationId", reason: "names no migration session of yours")
        }
    }

    /// Notes a recorded batch's answers in its session. After the batch's own commit: should this fail,
    /// the session counts the batch short, and the app sends it again (a replay, counted then).
    public func note(
        _ outcomes: [(clientEventID: String, outcome: MigrationSession.Outcome)],
        in session: MigrationSession.ID
    ) async throws {
        try await self.store.transaction { tx in try await tx.historyMigrations.note(outcomes, in: session) }
    }
}
