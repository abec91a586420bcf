import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import Testing

/// Issue 48: the metrics of notifications, emails and challenges against spec 000's wording ("% of
/// notifications opened within 1 hour", "% of emails not bounced", spec 002's template share), each
/// figure counted from what the test made happen through real transports and the HTTP API.
struct MetricDeliveryFiguresTests {
    /// Sends a notification of `type` to `user`, with data enough for every type used here; answers its id.
    static func send(_ app: TestApp, _ type: String, to user: String, key: String) async throws -> String {
        let data = ["streak": "14", "steps": "8,000", "left": "2,000", "freezesLeft": "1"]
        return try await app.sendNotification(type, key: key, to: user, data: data).id
    }

    static func figure(_ rows: [MetricRow], _ metric: String) -> [Double]? {
        rows.first { $0.metric == metric }.map { [$0.numerator, $0.denominator] }
    }

    /// Three pushes reach Ana's phone through FCM at 13:00: she opens one half an hour later, one two hours
    /// later, and never the third. One of three was opened within the hour.
    @Test(arguments: Backend.available)
    func pushOpenRateCountsOpensWithinAnHourOfThePushesDelivered(_ backend: Backend) async throws {
        try await FakeFCM.withTestApp(backend) { app, fcm, ana in
            var sent: [String] = []
            for type in ["daily_checkin_reminder", "streak_at_risk", "steps_to_go"] {
                sent.append(try await Self.send(app, type, to: ana, key: type))
            }
            try await app.runJobs()
            #expect(fcm.received.count == 3)
            for (notification, after) in [(sent[0], 30.0), (sent[1], 90.0)] {
                app.clock.advance(by: after * 60)
                let token = try await app.devSignIn().accessToken
                #expect(
                    try await app.request(.post, "/api/notifications/\(notification)/opened", token: token).status
                        == .noContent
                )
            }

            let rows = try await app.engine.metrics.rollUp(
                LocalDate(app.clock.now, in: TimeZone(identifier: "Europe/Paris")!)
            )
            #expect(Self.figure(rows, "push_open_rate") == [1, 3])
            // She came back through a notification; the operator, who only sent, did not.
            #expect(Self.figure(rows, "notification_return") == [1, 1])
        }
    }

    /// An operator, Ana and someone whose address bounces sign up (each is welcomed by email); Ana is sent
    /// the week's digest and the evening's check-in email, the other the digest. Ana opens the digest,
    /// follows its link and unsubscribes from it in one click. Of the six emails four were delivered (the
    /// operator's and Ana's) and two bounced; of the four, one was opened and clicked, and one unsubscribe
    /// came.
    @Test(arguments: Backend.available)
    func emailFiguresCountDeliveredBouncedOpenedClickedAndUnsubscribed(_ backend: Backend) async throws {
        try await FakeSMTP.withTestApp(backend) { app, smtp in
            _ = try await app.operatorToken()
            _ = try await app.onboardedUser()
            _ = try await app.onboardedUser("bounce@example.com")
            let ana = try await app.devSignIn().user.id
            let bounce = try await app.devSignIn("bounce@example.com").user.id
            _ = try await Self.send(app, "weekly_digest", to: ana, key: "digest")
            _ = try await Self.send(app, "weekly_digest", to: bounce, key: "digest")
            _ = try await Self.send(app, "daily_checkin_email", to: ana, key: "checkin")
            try await app.runJobs()
            #expect(smtp.received.count == 4, "\(smtp.received.map(\.subject))")
            let digest = try #require(smtp.received.last { $0.subject.hasPrefix("Your Week in Review") })
            let html = try digest.part("text/html")
            #expect(
                try await app.request(
                    .get,
                    FakeSMTP.path(of: try FakeSMTP.firstURL(in: html, starting: "/api/emails/open/"))
                ).status == .ok
            )
            #expect(
                try await app.request(
                    .get,
                    FakeSMTP.path(of: try FakeSMTP.firstURL(in: html, starting: "/api/emails/click/"))
                ).status == .found
            )
            let unsubscribe = try FakeSMTP.firstURL(
                in: try #require(digest.headers["List-Unsubscribe"]),
                starting: "/api/emails/unsubscribe?token="
            )
            let done = try await app.request(
                .post,
                FakeSMTP.path(of: unsubscribe),
                body: Data("List-Unsubscribe=One-Click".utf8),
                headers: [.contentType: "application/x-www-form-urlencoded"]
            )
            #expect(done.status == .ok)

            let rows = try await app.engine.metrics.rollUp(
                LocalDate(app.clock.now, in: TimeZone(identifier: "Europe/Paris")!)
            )
            #expect(Self.figure(rows, "email_deliverability") == [4, 6])
            #expect(Self.figure(rows, "email_open_rate") == [1, 4])
            #expect(Self.figure(rows, "email_click_rate") == [1, 4])
            #expect(Self.figure(rows, "email_unsubscribe_rate") == [1, 4])
        }
    }

    /// On one day Ana makes a 5 km race for three from a template and a fortnight's challenge of her own;
    /// a week later the race settles: Ana ran 6 km, Ben 3 and Cat nothing. One of its three participants
    /// completed it, and one of the day's two challenges came from a template.
    @Test(arguments: Backend.available)
    func challengeCompletionAndTemplateShareCountParticipantsAndChallenges(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "famefit") { app async throws in
            let ana = try await app.person("ana@example.com")
            let ben = try await app.person("ben@example.com")
            let cat = try await app.person("cat@example.com")
            let race = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token(app),
                json: ["templateId": "five-k-face-off", "visibility": "public"]
            )
            #expect(race.status == .created, "\(race.text)")
            let id = try race.decoded(as: Components.Schemas.Competition.self).id
            for person in [ben, cat] {
                _ = try await app.joinChallenge(id, as: person).ok
            }
            let own = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token(app),
                json: [
                    "name": "Fortnight", "type": "distance", "goal": "most", "durationDays": 14, "visibility": "public",
                ]
            )
            #expect(own.status == .created, "\(own.text)")
            let paris = TimeZone(identifier: "Europe/Paris")!
            let created = try await app.engine.metrics.rollUp(LocalDate(app.clock.now, in: paris))
            #expect(Self.figure(created, "template_share") == [1, 2])

            app.clock.advance(by: 3_600)
            for (person, km) in [(ana, 6.0), (ben, 3.0)] {
                let run = app.workout("run-\(person.id)", km: km, minutes: 40, startedMinutesAgo: 45)
                _ = try await app.api(as: person).recordActivity(body: .json(run)).created
            }
            try await app.settleChallenges(after: 7)
            #expect(try await app.winners(of: id, as: ana) == [ana.id])
            let settled = try await app.engine.metrics.rollUp(LocalDate(app.clock.now, in: paris))
            #expect(Self.figure(settled, "challenge_completion") == [1, 3])
        }
    }
}
