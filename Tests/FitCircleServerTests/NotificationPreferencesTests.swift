import FitCircleClient
import FitCircleCore
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// `GET/PUT /api/notifications/preferences` (spec 000, Feature 8).
struct NotificationPreferencesTests {
    @Test(arguments: Backend.available)
    func newAccountsStartWithTheDefaultsAndEveryTypeOfTheApp(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let preferences = try await app.api(token).getNotificationPreferences().ok.body.json
            #expect(preferences.push && preferences.email && preferences.inApp)
            #expect(preferences.reminderTime == "20:00")
            #expect(preferences.quietHours == .init(start: "22:00", end: "07:00"))
            #expect(!preferences.pauseWeekends)
            let types = preferences.types
            #expect(types.map(\._type) == app.engine.profile.notifications.types.map(\.type))
            let reminder = try #require(types.first { $0._type == "daily_checkin_reminder" })
            #expect(reminder.critical)
            #expect(reminder.channels == .init(push: true, inApp: true))
            let stored = try await app.store.read { tx in
                try await tx.notifications.preferences(
                    of: User.ID(try await app.devSignIn().user.id)
                )
            }
            #expect(stored == .defaults)
        }
    }

    @Test(arguments: Backend.available)
    func changesAreSavedAndACriticalTypeCannotBeTurnedOff(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let change: [String: Any] = [
                "email": false, "reminderTime": "07:30", "quietHours": ["start": "23:00", "end": "06:30"],
                "pauseWeekends": true,
                "types": [["type": "social_engagement", "channels": ["push": false], "digest": true]],
            ]
            let saved = try await app.request(.put, "/api/notifications/preferences", token: token, json: change)
            #expect(saved.status == .ok, "\(saved.text)")
            let again = try await app.api(token).getNotificationPreferences().ok.body.json
            #expect(!again.email)
            #expect(again.reminderTime == "07:30")
            #expect(again.quietHours == .init(start: "23:00", end: "06:30"))
            #expect(again.pauseWeekends)
            let social = try #require(again.types.first { $0._type == "social_engagement" })
            #expect(social.channels == .init(push: false, inApp: true))
            #expect(social.digest)

            let refused = try await app.request(
                .put,
                "/api/notifications/preferences",
                token: token,
                json: [
                    "pauseWeekends": false, "reminderTime": "05:00",
                    "types": [["type": "daily_checkin_reminder", "channels": ["push": false]]],
                ]
            )
            #expect(refused.status == .unprocessableContent)
            let fields = (try refused.problem().fields)
            #expect(fields == ["types.daily_checkin_reminder.push", "reminderTime"])
            let badTime = try await app.request(
                .put,
                "/api/notifications/preferences",
                token: token,
                json: ["quietHours": ["start": "25:00", "end": "7"]]
            )
            #expect(
                (try badTime.problem().fields) == [
                    "quietHours.start", "quietHours.end",
                ]
            )
            // Nothing of a refused change is kept.
            #expect(try await app.api(token).getNotificationPreferences().ok.body.json.pauseWeekends)
        }
    }
}
