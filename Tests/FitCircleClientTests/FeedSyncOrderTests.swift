import FitCircleTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

@testable import FitCircleClient

/// Spec 004 R12.6: "THE App SHALL prioritize syncing the user's own activities before fetching social feed
/// updates" — the SDK's `feed()` sends what waits in the outbox first, so the person's latest workout is in
/// the page it reads.
struct FeedSyncOrderTests {
    @Test(arguments: Backend.available)
    func r12_6_thePersonsOwnWaitingWorkoutIsSentBeforeTheFeedIsRead(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "social") { app in
            let transport = RecordingTransport(app: app)
            try await FitCircle.withInProcessDevice(app, transport: transport) { device in
                _ = try await app.onboardedUser("ana@example.com")
                try await device.signInForDevelopment(email: "ana@example.com")
                // Recorded while the app was offline (the background sync never started): it waits in the outbox.
                try await device.record(
                    .workout(
                        .running,
                        duration: 1_800,
                        distanceMeters: 5_000,
                        at: app.clock.now.addingTimeInterval(-3_600),
                        id: "morning-run"
                    )
                )
                #expect(await device.syncStatus.pending == 1)
                transport.sent.withLock { $0 = [] }

                let page = try await device.feed()
                let order = transport.operations
                let sent = try #require(order.firstIndex(of: "recordActivityBatch"), "\(order)")
                let read = try #require(order.firstIndex(of: "getFriendFeed"), "\(order)")
                #expect(sent < read, "\(order)")
                #expect(page.items.count == 1, "the person's own workout is in the page it read")
                #expect(await device.syncStatus.pending == 0)
            }
        }
    }
}
