public import Foundation

/// How far an import of local history has come, for a progress bar.
public struct MigrationProgress: Sendable, Equatable {
    /// Items in the history.
    public var total: Int
    /// Items the server has answered (recorded, found already recorded, or refused).
    public var answered: Int
    /// Items the server refused (see `MigrationReport.rejections`).
    public var refused: Int

    public var fractionCompleted: Double { self.total == 0 ? 1 : Double(self.answered) / Double(self.total) }
}

/// The end of an import, as the server counts it.
public struct MigrationReport: Sendable {
    /// The server's migration session: `complete` when it has every item, none refused.
    public var session: Components.Schemas.MigrationSession
    /// What the server refused, with why.
    public var rejections: [OutboxRejection]

    /// Whether the local history may be marked migrated: the server confirmed every item.
    public var isComplete: Bool { self.session.complete }
}

extension FitCircle {
    /// Imports the app's local history (spec 004, R14), in batches counted in a server-side migration
    /// session. The items are first kept on disk, so an import cut short (the app killed, the network gone)
    /// resumes where it stopped when called again with the same history; items already sent are not sent
    /// twice in effect (the server answers them as replays). Transient failures are retried with the sync
    /// policy's backoff, `attempts` times in a row at most. Returns once the server has answered every item,
    /// with its own count of them: mark the local data migrated only if `isComplete`.
    public func migrate(
        _ history: [ActivityInput],
        attempts: Int = 8,
        progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }
    ) async throws -> MigrationReport {
        let directory = self.configuration.storageDirectory.appendingPathComponent("migration")
        let outbox = try Outbox(directory: directory)
        let state = MigrationState(url: directory.appendingPathComponent("session.json"))
        let sessionID: String
        if let saved = try state.load(), await outbox.count > 0 {
            sessionID = saved  // resuming an import cut short
        } else {
            let session = try await self.call {
                try await $0.openMigration(body: .json(.init(expected: history.count))).created.body.json
            }
            try state.save(session.id)
            sessionID = session.id
        }
        try await outbox.add(try await self.outboxItems(history))

        let synchronizer = await Synchronizer(
            outbox: outbox,
            sender: OutboxSender(client: self.api, migrationID: sessionID),
            policy: self.configuration.syncPolicy,
            now: self.configuration.now
        )
        let total = history.count
        let watching = Task {
            for await status in await synchronizer.updates() {
                progress(
                    MigrationProgress(total: total, answered: max(0, total - status.pending), refused: status.rejected)
                )
            }
        }
        defer { watching.cancel() }
        var failures = 0
        while true {
            do {
                try await synchronizer.sync()
                break
            } catch let error where Self.isTransient(error) && failures + 1 < attempts {
                failures += 1
                try await Task.sleep(
                    for: self.configuration.syncPolicy.backoff(
                        afterFailures: failures,
                        retryAfter: error.fitCircleProblem?.retryAfter
                    )
                )
            }
        }
        // Done only on the server's word.
        let session = try await self.call { try await $0.getMigration(path: .init(id: sessionID)).ok.body.json }
        let rejections = await outbox.rejections
        if session.complete { try state.clear() }
        return MigrationReport(session: session, rejections: rejections)
    }

    /// A failure that passes: the server unreachable, busy or failing.
    static func isTransient(_ error: any Error) -> Bool {
        if case .unreachable = error as? FitCircleError { return true }
        guard let problem = error.fitCircleProblem else { return false }
        return problem.status == 408 || problem.status == 429 || problem.status >= 500
    }
}

/// The id of the migration session an import is counted in, kept until the server confirms it complete.
struct MigrationState {
    let url: URL

    func load() throws -> String? {
        guard FileManager.default.fileExists(atPath: self.url.path) else { return nil }
        return try JSONDecoder().decode([String: String].self, from: Data(contentsOf: self.url))["session"]
    }

    func save(_ id: String) throws {
        try JSONEncoder().encode(["session": id]).write(to: self.url, options: .atomic)
    }

    func clear() throws {
        if FileManager.default.fileExists(atPath: self.url.path) { try FileManager.default.removeItem(at: self.url) }
    }
}
