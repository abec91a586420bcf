import FitCircleClient
import FitCircleCore
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Use cases that read and then write do both in one transaction under the user's lock: concurrent
/// requests neither count twice nor lose each other's changes.
struct ConcurrentUpdateTests {
    /// Sends every body at once and waits for all the answers.
    static func concurrently(
        _ app: TestApp,
        _ method: HTTPRequest.Method,
        _ path: String,
        token: String,
        bodies: [[String: Any]]
    ) async throws -> [HTTPResponse.Status] {
        let encoded = try bodies.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
            for body in encoded {
                group.addTask {
                    try await app.request(
                        method,
                        path,
                        token: token,
                        body: body,
                        headers: [.contentType: "application/json"]
                    ).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test(arguments: Backend.available)
    func twoProgressUpdatesToDifferentTotalsCountTheHigherOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let id = try #require(try await app.api(token).getDailyGoals().ok.body.json[.steps]?.id)
            for round in 1...5 {
                let totals = [1000 * round + 300, 1000 * round + 600]
                let statuses = try await Self.concurrently(
                    app,
                    .put,
                    "/api/goals/daily/\(id)/progress",
                    token: token,
                    bodies: totals.map { ["value": $0] }
                )
                // The later writer sees the earlier total: it adds the difference, or is refused as below it.
                #expect(statuses.contains(.ok))
                #expect(statuses.allSatisfy { $0 == .ok || $0 == .unprocessableContent }, "\(statuses)")
                let days = try await app.api(token).listDailyTotals().ok.body.json.days
                let manual = try #require(days.map(\.manualSteps).max())
                #expect(totals.contains(manual), "round \(round): \(manual) manual steps from totals \(totals)")
            }
        }
    }

    @Test(arguments: Backend.available)
    func concurrentPreferenceSavesEachKeepWhatTheyChanged(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let email = try await app.api(token).getEmailPreferences().ok.body.json
            let types = email.types.additionalProperties.keys.sorted()
            #expect(types.count >= 3)
            for on in [false, true] {
                let statuses = try await Self.concurrently(
                    app,
                    .put,
                    "/api/emails/preferences",
                    token: token,
                    bodies: types.map { ["types": [$0: on]] }
                )
                let refused = statuses.filter { $0 != .ok }.count
                let saved: [String: Bool]? = try await app.api(token).getEmailPreferences().ok.body.json.types
                    .additionalProperties
                // A critical type cannot be turned off (422); every other change is kept.
                #expect(saved?.values.filter { $0 == on }.count == types.count - (on ? 0 : refused))
            }

            let statuses = try await Self.concurrently(
                app,
                .put,
                "/api/notifications/preferences",
                token: token,
                bodies: [
                    ["pauseWeekends": true], ["reminderTime": "19:30"],
                    ["quietHours": ["start": "23:00", "end": "06:30"]], ["inApp": false],
                ]
            )
            #expect(statuses.allSatisfy { $0 == .ok }, "\(statuses)")
            let saved = try await app.api(token).getNotificationPreferences().ok.body.json
            #expect(saved.pauseWeekends)
            #expect(saved.reminderTime == "19:30")
            #expect(saved.quietHours.start == "23:00")
            #expect(!saved.inApp)
        }
    }

    @Test(arguments: Backend.available)
    func concurrentCheckInsForOneDayCountOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let statuses = try await Self.concurrently(
                app,
                .post,
                "/api/streaks/checkin",
                token: token,
                bodies: (1...4).map { ["mood": $0, "energy": 3, "weightKg": 60 + Double($0)] }
            )
            #expect(statuses.filter { $0 == .ok || $0 == .created }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .conflict }.count == 3, "\(statuses)")
            let events = try await app.api(token).listActivities(query: .init(limit: 200)).ok.body.json.items
            #expect(events.filter { $0._type == .checkIn }.count == 1)
            #expect(events.filter { $0._type == .weight }.count == 1)
        }
    }
}
