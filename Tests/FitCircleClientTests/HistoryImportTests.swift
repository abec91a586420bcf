import FitCircleStore
import FitCircleTesting
import Foundation
import Synchronization
import Testing

@testable import FitCircleClient

/// An import of local history (spec 004, R14) through the SDK, against the real binary.
@Suite(.serialized)
struct HistoryImportTests {
    @Test(arguments: Backend.available)
    func fiveThousandHistoricalActivitiesAreConfirmedBeforeTheImportSaysDoneEvenThroughAKill(_ backend: Backend)
        async throws
    {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let first = try await ServerProcess.start(on: location)
        let device = try await FitCircle.device(
            on: first,
            email: "ana@example.com",
            policy: SyncPolicy(batchSize: 250, initialBackoff: .milliseconds(50))
        )

        // Sixty days of an older app's history.
        let now = Date()
        let history: [Components.Schemas.ActivityInput] = (0..<5_000).map { index in
            .steps(
                20 + index % 11,
                at: now.addingTimeInterval(-Double(index) * 1_000),
                source: .manual,
                id: "history-\(index)"
            )
        }
        let seen = Mutex<[MigrationProgress]>([])

        // The server dies once the import is under way: the call fails rather than saying done.
        let cut = Task {
            try await device.migrate(history, attempts: 1) { progress in
                seen.withLock { $0.append(progress) }
                if progress.answered >= 1_000 { first.kill() }
            }
        }
        await #expect(throws: (any Error).self) { _ = try await cut.value }
        let answeredBeforeTheKill = seen.withLock { $0.last?.answered ?? 0 }
        #expect(answeredBeforeTheKill >= 1_000 && answeredBeforeTheKill < 5_000)

        // Called again with the same history after the restart: it resumes, and ends on the server's word.
        let second = try await first.restart()
        defer { second.kill() }
        let report = try await device.migrate(history) { progress in seen.withLock { $0.append(progress) } }
        #expect(report.isComplete)
        #expect(report.session.expected == 5_000)
        #expect(report.session.accepted + report.session.duplicates == 5_000)
        #expect(report.session.refused == 0)
        #expect(report.rejections.isEmpty)
        let progress = seen.withLock { $0 }
        #expect(progress.last?.answered == 5_000)
        #expect(progress.last?.fractionCompleted == 1)
        #expect(Set(try await device.allActivities().map(\.clientEventId)) == Set(history.map(\.clientEventId)))
    }
}
