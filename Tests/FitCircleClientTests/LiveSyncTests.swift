import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

@testable import FitCircleClient

/// The SDK against the real `fitcircle` binary: what a device records offline reaches the server exactly once,
/// through a server killed mid-sync and an access token that expires mid-sync.
@Suite(.serialized)
struct LiveSyncTests {
    /// `count` step records over the last two days, each with its own client event id.
    static func offlineSteps(_ count: Int) -> [Components.Schemas.ActivityInput] {
        let now = Date()
        return (0..<count).map { index in
            .steps(10 + index % 7, at: now.addingTimeInterval(-Double(index) * 150), id: "offline-\(index)")
        }
    }

    @Test(arguments: Backend.available)
    func aThousandActivitiesRecordedOfflineArriveOnceThroughAKilledServer(_ backend: Backend) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let first = try await ServerProcess.start(on: location)
        let device = try await FitCircle.device(on: first, email: "ana@example.com", policy: SyncPolicy(batchSize: 25))

        // Offline: the server is gone while the thousand are recorded, and a sync fails without losing any.
        first.kill()
        let recorded = Self.offlineSteps(1_000)
        for chunk in stride(from: 0, to: recorded.count, by: 100) {
            try await device.record(Array(recorded[chunk..<min(chunk + 100, recorded.count)]))
        }
        await #expect(throws: FitCircleError.self) { try await device.sync() }
        #expect(await device.syncStatus.pending == 1_000)
        #expect(await device.syncStatus.consecutiveFailures == 1)

        // Back online; killed again once the first batches are in, while the next one is on its way.
        let second = try await first.restart()
        let updates = await device.syncStatusUpdates()
        let syncing = Task { try await device.sync() }
        for await status in updates where status.pending <= 900 { break }
        second.kill()
        await #expect(throws: (any Error).self) { try await syncing.value }
        let leftOver = await device.syncStatus.pending
        #expect(leftOver > 0 && leftOver <= 900)

        // Up again: the rest goes, and the server holds each of the thousand once, with all their steps.
        let third = try await second.restart()
        defer { third.kill() }
        try await device.sync()
        #expect(await device.syncStatus.pending == 0)
        #expect(await device.syncStatus.consecutiveFailures == 0)
        let held = try await device.allActivities()
        #expect(held.count == 1_000)
        #expect(Set(held.map(\.clientEventId)) == Set(recorded.map(\.clientEventId)))
        let heldSteps = held.compactMap { $0.steps }.reduce(0, +)
        let recordedSteps = recorded.compactMap { $0.steps }.reduce(0, +)
        #expect(heldSteps == recordedSteps)
    }

    @Test(arguments: Backend.available)
    func anAccessTokenThatExpiresMidSyncIsRefreshedOnceForEveryCallRacingOnIt(_ backend: Backend) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        // One-second tokens, and no refresh ahead of expiry: every expiry is met as a 401.
        let server = try await ServerProcess.start(
            on: location,
            environment: ["FITCIRCLE_AUTH_ACCESS_TOKEN_SECONDS": "1"]
        )
        defer { server.kill() }
        let device = try await FitCircle.device(
            on: server,
            email: "ana@example.com",
            policy: SyncPolicy(batchSize: 5),
            refreshMargin: 0
        )

        let recorded = Self.offlineSteps(150)
        try await device.record(recorded)
        try await Task.sleep(for: .milliseconds(1_100))
        let before = await device.authenticator.refreshes
        // Twenty calls at once on the expired token, beside the sync: a second exchange of the same refresh
        // token would revoke the session, and the calls (or the sync) would fail.
        async let synced: Void = device.sync()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await device.streak().current } }
            for try await _ in group {}
        }
        try await synced
        let refreshes = await device.authenticator.refreshes - before
        #expect(refreshes >= 1)
        let held = try await device.allActivities()
        #expect(held.count == 150)
        #expect(Set(held.map(\.clientEventId)) == Set(recorded.map(\.clientEventId)))
        // The session still works after all the refreshes.
        _ = try await device.profile()
        #expect(await device.session != nil)
    }

    @Test(arguments: Backend.available)
    func anItemTheServerRefusesLeavesWithItsProblemAndDoesNotHoldUpTheRest(_ backend: Backend) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let server = try await ServerProcess.start(on: location)
        defer { server.kill() }
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-\(UUID().uuidString)")
        let device = try await FitCircle.device(on: server, email: "ana@example.com", storage: storage)

        var recorded = Self.offlineSteps(6)
        recorded[2].steps = 250_000  // more than anyone walks in a day
        try await device.record(recorded)
        try await device.checkIn(.init(mood: 4, energy: 3))
        try await device.sync()

        #expect(await device.syncStatus.pending == 0)
        let rejections = await device.outbox.rejections
        #expect(rejections.map(\.item.id) == ["offline-2"])
        #expect(rejections.first?.problem.status == 422)
        #expect(try await device.allActivities().filter { $0._type == .steps }.count == 5)
        #expect(try await device.streak().current == 1)

        // The session and the refusal are still there at the next launch.
        let relaunched = try await FitCircle(
            .init(
                baseURL: server.url,
                storageDirectory: storage,
                sessionStore: FileSessionStore(url: storage.appendingPathComponent("session.json"))
            )
        )
        #expect(await relaunched.outbox.rejections.map(\.item.id) == ["offline-2"])
        #expect(try await relaunched.profile().displayName == "Ana")
    }
}

/// Two devices of one person edit the same activities offline; once both have synced, both read the version
/// edited last, whichever synced first.
@Suite(.serialized)
struct TwoDeviceEditTests {
    @Test(arguments: Backend.available)
    func twoDevicesThatEditedOfflineEndOnTheLatestEditWhicheverSyncsFirst(_ backend: Backend) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let server = try await ServerProcess.start(on: location)
        defer { server.kill() }
        let phone = try await FitCircle.device(on: server, email: "ana@example.com")
        let watch = try await FitCircle.device(on: server, email: "ana@example.com")
        let start = Date().addingTimeInterval(-3_600)
        func run(_ id: String, minutes: Double) -> Components.Schemas.ActivityInput {
            .workout(.running, duration: minutes * 60, distanceMeters: minutes * 150, at: start, id: id)
        }
        try await phone.record([run("run-x", minutes: 30), run("run-y", minutes: 30)])
        try await phone.sync()

        // Offline, each edits both; the phone syncs first, then the watch.
        let (earlier, later) = (Date().addingTimeInterval(-20), Date().addingTimeInterval(-10))
        try await phone.edit(run("run-x", minutes: 41), modifiedAt: earlier)
        try await watch.edit(run("run-x", minutes: 52), modifiedAt: later)  // the last edit of run-x, synced last
        try await phone.edit(run("run-y", minutes: 43), modifiedAt: later)  // the last edit of run-y, synced first
        try await watch.edit(run("run-y", minutes: 54), modifiedAt: earlier)
        try await phone.sync()
        try await watch.sync()

        for device in [phone, watch] {
            let held = Dictionary(uniqueKeysWithValues: try await device.allActivities().map { ($0.clientEventId, $0) })
            #expect(held["run-x"]?.workout?.value1.durationSeconds == 3_120.0)
            #expect(held["run-y"]?.workout?.value1.durationSeconds == 2_580.0)
            #expect(held["run-x"]?.revision == 2)
            #expect(held["run-y"]?.revision == 1)
        }
        #expect(await phone.outbox.rejections.isEmpty)
        #expect(await watch.outbox.rejections.isEmpty)
    }
}
