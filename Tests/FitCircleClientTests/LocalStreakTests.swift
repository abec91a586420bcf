import FitCircleCore
import FitCircleTesting
import Foundation
import Synchronization
import Testing

@testable import FitCircleClient

/// The app-open streak kept on the device (FitCircleCore's rules, offline) agrees with the server's once
/// synced: over a month of random opens and syncs, with the person flying from Paris to Tokyo halfway.
struct LocalStreakTests {
    @Test(arguments: Backend.available)
    func theDevicesStreakAgreesWithTheServersAfterEverySyncOverARandomMonthAcrossAZoneChange(_ backend: Backend)
        async throws
    {
        // 2026-03-02, a Monday; DST in Paris on 03-29
        let clock = TestClock(Date(timeIntervalSince1970: 1_772_452_800))
        try await withTestApp(backend, profile: "astrofriends", clock: clock) { app in
            let zone = Mutex(TimeZone(identifier: "Europe/Paris")!)
            let storage = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: storage) }
            let device = try await FitCircle(
                .init(
                    baseURL: URL(string: "http://in-process")!,
                    storageDirectory: storage,
                    sessionStore: MemorySessionStore(),
                    timeZone: { zone.withLock { $0 } },
                    now: { clock.now },
                    transport: InProcessTransport(app: app)
                )
            )
            try await device.signInForDevelopment(email: "ana@example.com")
            #expect(await device.localStreak() == nil, "no rules known yet")
            _ = try await device.streak()
            // The older app's history of the three days before: imported, and counted on the device too.
            let imported = try await device.migrate(
                (1...3).map { .appOpen(at: clock.now.addingTimeInterval(-Double($0) * 86_400)) }
            )
            #expect(imported.isComplete)
            #expect(await device.localStreak()?.current == 3)

            var random = SeededRandom(seed: 20_261_126)
            var compared = 0
            for day in 0..<31 {
                if day == 16 {
                    // Flies to Tokyo: the app moves the profile there, as it would on seeing the new zone.
                    zone.withLock { $0 = TimeZone(identifier: "Asia/Tokyo")! }
                    _ = try await device.call {
                        try await $0.updateProfile(
                            body: .json(
                                .init(
                                    displayName: "Ana",
                                    age: 34,
                                    weight: .init(value: 62, unit: .kg),
                                    timeZone: "Asia/Tokyo"
                                )
                            )
                        ).ok
                    }
                }
                // Some moment of the day where she is (7:00–23:00), opening the app 0–2 times.
                let here = zone.withLock { $0 }
                let midnight = LocalDate(clock.now, in: here).adding(days: day == 0 ? 0 : 1).start(in: here)
                clock.set(midnight.addingTimeInterval(Double(Int.random(in: 7 * 3600...23 * 3600, using: &random))))
                for open in 0..<[0, 1, 1, 2].randomElement(using: &random)! {
                    try await device.record(.appOpen(at: clock.now.addingTimeInterval(Double(open * 60))))
                }
                guard let offline = await device.localStreak() else {
                    Issue.record("no local streak on day \(day)")
                    return
                }
                #expect(offline.periodStart == LocalDate(clock.now, in: here))
                // Online on some days only: then both must tell the same streak.
                guard Bool.random(using: &random) || day == 30 else { continue }
                try await device.sync()
                let server = try await device.streak()
                let local = try #require(await device.localStreak())
                #expect(
                    local.current == server.current,
                    "day \(day): device \(local.current), server \(server.current)"
                )
                #expect(local.longest == server.longest, "day \(day)")
                #expect(local.counted == server.counted, "day \(day)")
                #expect(local.atRisk == server.atRisk, "day \(day)")
                #expect(local.freezesLeft == server.freezesLeft, "day \(day)")
                #expect(local.periodStart.iso == server.periodStart, "day \(day)")
                compared += 1
            }
            #expect(compared >= 10)
            #expect(try await device.streak().longest >= 2, "a month of random opens makes some streak")
        }
    }
}
