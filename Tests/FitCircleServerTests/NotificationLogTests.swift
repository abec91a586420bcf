import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleJobs
import FitCircleStore
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

/// Decisions kept once per dedupe key, the outbox, the in-app inbox, history and "why", through the API.
struct NotificationLogTests {
    @Test(arguments: Backend.available)
    func aSendIsDecidedOnceQueuedPerChannelAndReadInTheInbox(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()  // Europe/Paris; 13:00 there
            let device = try await app.request(
                .post,
                "/api/notifications/register",
                token: token,
                json: ["platform": "ios", "token": "abc123", "environment": "sandbox"]
            )
            #expect(device.status == .created, "\(device.text)")

            let first = try await app.sendNotification("daily_checkin_reminder")
            #expect(first.status == .sent)
            #expect(first.channels.map(\.rawValue) == ["push", "in_app"])
            #expect(first.body == "⏰ Complete your check-in to keep your 14-day streak alive!")
            let again = try await app.sendNotification("daily_checkin_reminder")
            #expect(again.id == first.id)
            let id = first.id
            let outbox = try await app.store.read { tx in try await tx.jobs.all(kind: Notifications.deliver) }
            #expect(outbox.map(\.dedupeKey) == ["deliver:\(id):push"])

            let member = try await app.request(
                .post,
                "/api/notifications/send",
                token: token,
                json: ["userId": try await app.devSignIn().user.id, "type": "welcome"]
            )
            #expect(member.status == .forbidden)

            #expect(try await app.api(token).getNotificationInbox().ok.body.json.unread == 1)
            #expect(try await app.request(.post, "/api/notifications/\(id)/read", token: token).status == .noContent)
            #expect(try await app.api(token).getNotificationInbox().ok.body.json.unread == 0)
            #expect(try await app.request(.post, "/api/notifications/\(id)/opened", token: token).status == .noContent)
            #expect(try await app.request(.post, "/api/notifications/nope/opened", token: token).status == .notFound)
            // Acted on (issue 48: no test called it): recorded once, and someone else's notification is not theirs to mark.
            for _ in 0..<2 {
                #expect(
                    try await app.request(.post, "/api/notifications/\(id)/action", token: token).status == .noContent
                )
            }
            let stranger = try await app.onboardedUser("zed@example.com")
            #expect(
                try await app.request(.post, "/api/notifications/\(id)/action", token: stranger).status == .notFound
            )
            let today = LocalDate(app.clock.now, in: TimeZone(identifier: "Europe/Paris")!)
            let acted = try await app.store.read { tx in
                try await tx.metrics.events(named: "notification_acted", from: today, to: today)
            }
            #expect(acted.count == 1 && acted.first?.properties["notificationId"] == .string(id), "\(acted)")

            let why = try await app.api(token).getNotificationWhy(path: .init(id: id)).ok.body.json
            #expect(why.trail.first == "'daily_checkin_reminder', critical, at 13:00 in Europe/Paris")
            #expect(why.trail.last == "sent now by push, in_app")
            #expect(why.notification.openedAt != nil)
            #expect(why.notification.actionAt != nil)
        }
    }

    @Test(arguments: Backend.available)
    func quietHoursDeferAndTheNotificationIsDecidedAgainWhenTheyEnd(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            app.clock.advance(by: 10 * 3_600)  // 23:00 in Paris
            let deferred = try await app.sendNotification("streak_at_risk")
            #expect(deferred.status == .deferred)
            #expect(deferred.reason == "quiet hours until 07:00")
            // The welcome onboarding raised (deferred too at this hour) and the evening's reminders planned at onboarding.
            try await app.runJobs()
            app.clock.advance(by: 8 * 3_600)  // 07:00
            #expect(try await app.runJobs() >= 1)
            let id = deferred.id
            let why = try await app.api(as: "ana@example.com").getNotificationWhy(path: .init(id: id)).ok.body.json
            #expect(why.notification.status == .sent)
            #expect(why.trail.contains { $0.hasPrefix("deferred until") })
            // no push device registered: email instead (emailFallback)
            #expect(why.trail.last == "sent now by email, in_app")
            _ = token
        }
    }

    @Test(arguments: Backend.available)
    func theDaysBudgetDropsTheFourthAndTheHistorySaysWhy(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            for (index, type) in ["streak_at_risk", "weekly_goal_progress", "data_submission", "leaderboard_change"]
                .enumerated()
            {
                let decided = try await app.sendNotification(type, key: "k\(index)")
                #expect(decided.status == (index < 3 ? .sent : .dropped), "\(type)")
            }
            let items = try await app.api(token).getNotificationHistory(query: .init(limit: 10)).ok.body.json.items
            #expect(items.count == 4)
            let dropped = try #require(items.first { $0.status == .dropped })
            #expect(dropped.reason == "the day's budget of 3 is spent")
            let filtered = try await app.api(token).getNotificationHistory(query: .init(_type: "streak_at_risk")).ok
            #expect(try filtered.body.json.items.count == 1)
            let bad = try await app.request(.get, "/api/notifications/history?limit=0", token: token)
            #expect(bad.status == .unprocessableContent)
        }
    }
}

/// The in-app inbox live over server-sent events.
struct InboxStreamTests {
    @Test(arguments: Backend.available)
    func whatLandsInTheAppIsStreamedAndAReconnectResumesAfterTheLastEventID(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let ana = User.ID(try await app.devSignIn().user.id)
            _ = try await app.operatorToken()
            // Live: the stream opens with the unread count, and a send wakes it with the notification.
            var updates = app.engine.notifications.inboxUpdates(of: ana, after: nil, for: .seconds(60))
                .makeAsyncIterator()
            #expect(try await updates.next()?.unread == 0)
            let first = try await app.sendNotification("social_engagement", key: "cheer-1")
            let landed = try await updates.next()
            #expect(landed?.notification?.id.rawValue == first.id)
            #expect(landed?.unread == 1)

            // Over HTTP: while the client was away, another one landed; the reconnect gets it, and only it.
            let second = try await app.sendNotification("daily_checkin_reminder", key: "reminder-1")
            let resumed = try await app.request(
                .get,
                "/api/notifications/stream?seconds=1",
                token: token,
                headers: [HTTPField.Name("Last-Event-ID")!: first.id]
            )
            #expect(resumed.status == .ok)
            #expect(resumed.headers[.contentType]?.hasPrefix("text/event-stream") == true)
            let events = ServerSentEvent.all(in: resumed.text)
            #expect(events.map(\.event) == ["unread", "notification"], "\(resumed.text)")
            #expect(try events.first?.decoded(as: Components.Schemas.InboxEvent.self).unread == 2)
            #expect(events.last?.id == second.id)
            let landedLast = try events.last?.decoded(as: Components.Schemas.InboxEvent.self)
            #expect(landedLast?.notification?._type == "daily_checkin_reminder")
            let fresh = ServerSentEvent.all(
                in: try await app.request(.get, "/api/notifications/stream?seconds=1", token: token).text
            )
            #expect(fresh.map(\.event) == ["unread"])

            let refused = try await app.request(.get, "/api/notifications/stream?seconds=0", token: token)
            #expect(refused.status == .unprocessableContent)
            #expect(try refused.problem().fields.contains("seconds"), "\(refused.text)")
        }
    }
}
