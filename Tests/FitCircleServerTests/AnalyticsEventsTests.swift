import FitCircleCore
import FitCircleStore
import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

/// `POST /api/events` (issue 24, spec 003's AnalyticsManager) and the server's own events.
struct AnalyticsEventsTests {
    static func stamp(_ instant: Date) -> String { ISO8601DateFormatter().string(from: instant) }

    static func events(_ app: TestApp, of person: TestPerson) async throws -> [AnalyticsEvent] {
        try await app.store.read { tx in try await tx.events.of(User.ID(person.id), limit: 500) }
    }

    /// A Tokyo user's views are kept once per client event id, on their own day.
    @Test(arguments: Backend.available)
    func spec003_theAppsEventsAreKeptOncePerClientIdOnTheUsersDay(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "astrofriends") { app async throws in
            app.clock.set(try Date("2026-03-01T16:30:00Z", strategy: .iso8601))  // 01:30 on 2 March in Tokyo
            let luna = try await app.person("luna@example.com", timeZone: "Asia/Tokyo")
            let batch: [String: Any] = [
                "events": [
                    [
                        "clientEventId": "e1", "name": "weekly_horoscope_viewed",
                        "occurredAt": Self.stamp(app.clock.now),
                        "properties": ["sign": "leo", "week": "2026-W10", "wasNew": true],
                    ],
                    [
                        "clientEventId": "e2", "name": "compatibility_weekly_viewed",
                        "occurredAt": Self.stamp(app.clock.now.addingTimeInterval(-7200)),
                        "properties": ["pair": "leo-aries"],
                    ],
                ]
            ]
            let first = try await app.request(.post, "/api/events", token: try await luna.token(app), json: batch)
            #expect(first.status == .ok, "\(first.text)")
            #expect(try first.jsonObject()["accepted"] as? Int == 2)
            let again = try await app.request(.post, "/api/events", token: try await luna.token(app), json: batch)
            #expect(try again.jsonObject()["accepted"] as? Int == 0)
            #expect(try again.jsonObject()["duplicates"] as? Int == 2)
            let kept = try await Self.events(app, of: luna).filter { $0.source == .app }
            #expect(kept.map(\.name).sorted() == ["compatibility_weekly_viewed", "weekly_horoscope_viewed"])
            #expect(kept.first { $0.name == "weekly_horoscope_viewed" }?.localDate.iso == "2026-03-02")
            // 23:30 the evening before
            #expect(kept.first { $0.name == "compatibility_weekly_viewed" }?.localDate.iso == "2026-03-01")
            #expect(
                kept.first { $0.name == "weekly_horoscope_viewed" }?.properties == [
                    "sign": .string("leo"), "week": .string("2026-W10"), "wasNew": .boolean(true),
                ]
            )
            // The app learns its events and their properties from the configuration.
            let config = try await app.request(.get, "/api/config", token: try await luna.token(app)).jsonObject()
            let names = (config["events"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names == ["compatibility_weekly_viewed", "screen_viewed", "weekly_horoscope_viewed"])
        }
    }

    /// Every kind of bad event is named, and the batch it came in keeps nothing.
    @Test(arguments: Backend.available)
    func aBadEventRefusesItsBatchNamingTheField(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "astrofriends") { app async throws in
            let luna = try await app.person("luna@example.com")
            let now = Self.stamp(app.clock.now)
            let good: [String: Any] = [
                "clientEventId": "ok", "name": "screen_viewed", "occurredAt": now, "properties": ["screen": "home"],
            ]
            let cases: [([String: Any], String)] = [
                (["clientEventId": "x", "name": "horoscope_viewd", "occurredAt": now], "events[1].name"),
                (["clientEventId": "x", "name": "app_opened", "occurredAt": now], "events[1].name"),
                (
                    [
                        "clientEventId": "x", "name": "screen_viewed", "occurredAt": now,
                        "properties": ["screen": "a", "colour": "red"],
                    ], "events[1].properties.colour"
                ),
                (
                    ["clientEventId": "x", "name": "screen_viewed", "occurredAt": now, "properties": [:]],
                    "events[1].properties.screen"
                ),
                (
                    ["clientEventId": "x", "name": "screen_viewed", "occurredAt": now, "properties": ["screen": 3]],
                    "events[1].properties.screen"
                ),
                (
                    [
                        "clientEventId": "x", "name": "weekly_horoscope_viewed", "occurredAt": now,
                        "properties": ["sign": "ophiuchus"],
                    ], "events[1].properties.sign"
                ),
                (
                    [
                        "clientEventId": "x", "name": "screen_viewed", "occurredAt": now,
                        "properties": ["screen": String(repeating: "é", count: 501)],
                    ], "events[1].properties.screen"
                ),
                (
                    [
                        "clientEventId": "x", "name": "screen_viewed",
                        "occurredAt": Self.stamp(app.clock.now.addingTimeInterval(3600)), "properties": ["screen": "a"],
                    ], "events[1].occurredAt"
                ),
                (
                    [
                        "clientEventId": "x", "name": "screen_viewed",
                        "occurredAt": Self.stamp(app.clock.now.addingTimeInterval(-31 * 86_400)),
                        "properties": ["screen": "a"],
                    ], "events[1].occurredAt"
                ),
                (
                    ["clientEventId": "ok", "name": "screen_viewed", "occurredAt": now, "properties": ["screen": "a"]],
                    "events[1].clientEventId"
                ),
                (
                    ["clientEventId": "", "name": "screen_viewed", "occurredAt": now, "properties": ["screen": "a"]],
                    "events[1].clientEventId"
                ),
            ]
            for (bad, field) in cases {
                let response = try await app.request(
                    .post,
                    "/api/events",
                    token: try await luna.token(app),
                    json: ["events": [good, bad]]
                )
                #expect(response.status == .unprocessableContent, "\(bad): \(response.text)")
                let fields =
                    (try response.problem().fields)
                #expect(fields.contains(field), "\(bad): \(response.text)")
            }
            // A nested value is not a property value; an empty batch is nothing to record.
            let nested = try await app.request(
                .post,
                "/api/events",
                token: try await luna.token(app),
                json: [
                    "events": [
                        [
                            "clientEventId": "x", "name": "screen_viewed", "occurredAt": now,
                            "properties": ["screen": ["a": 1]],
                        ]
                    ]
                ]
            )
            #expect(nested.status == .unprocessableContent, "\(nested.text)")
            #expect(
                try await app.request(.post, "/api/events", token: try await luna.token(app), json: ["events": []])
                    .status
                    == .unprocessableContent
            )
            #expect(try await Self.events(app, of: luna).filter { $0.source == .app }.isEmpty)
        }
    }

    /// What the server knows better it records itself: app opens and the streak they move, check-ins,
    /// the day's goals looked at (once a day), a notification opened.
    @Test(arguments: Backend.available)
    func theServerRecordsAppOpensStreaksCheckInsViewsAndOpenedNotifications(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "astrofriends") { app async throws in
            let luna = try await app.person("luna@example.com")
            let token = try await luna.token(app)
            let opened = try await app.request(
                .post,
                "/api/activities",
                token: token,
                json: [
                    "clientEventId": "open-1", "type": "app_open", "occurredAt": Self.stamp(app.clock.now),
                ]
            )
            #expect(opened.status == .created, "\(opened.text)")
            for _ in 0..<3 { #expect(try await app.request(.get, "/api/goals/daily", token: token).status == .ok) }
            let sent = try await app.engine.notifications.notify(
                .init(type: .weeklyReminder, dedupeKey: "w1", data: [:]),
                to: User.ID(luna.id)
            )
            app.clock.advance(by: 600)
            #expect(
                try await app.request(.post, "/api/notifications/\(sent.id.rawValue)/opened", token: token).status.code
                    < 300
            )
            let events = try await Self.events(app, of: luna)
            #expect(events.filter { $0.name == "app_opened" }.count == 1)
            #expect(events.first { $0.name == "streak_updated" }?.properties["current"] == .integer(1))
            #expect(events.filter { $0.name == "goal_viewed" }.count == 1)
            let open = events.first { $0.name == "notification_opened" }
            #expect(
                open?.properties == [
                    "notificationId": .string(sent.id.rawValue), "type": .string("weekly_reminder"),
                    "minutes": .integer(10),
                ]
            )
            #expect(events.allSatisfy { $0.source == .server })
        }
    }

    /// A check-in says whether yesterday was acknowledged with a sentiment.
    @Test(arguments: Backend.available)
    func aCheckInIsRecordedWithOrWithoutItsSentiment(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "fitcircle") { app async throws in
            let ana = try await app.person("ana@example.com")
            let checked = try await app.request(
                .post,
                "/api/streaks/checkin",
                token: try await ana.token(app),
                json: ["mood": 4, "energy": 3, "sentiment": "great"]
            )
            #expect(checked.status == .created, "\(checked.text)")
            let event = try await Self.events(app, of: ana).first { $0.name == "checkin_completed" }
            #expect(event?.properties == ["sentiment": .boolean(true), "late": .boolean(false)])
        }
    }
}
