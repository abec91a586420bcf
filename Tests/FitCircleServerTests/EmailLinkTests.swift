import FitCircleClient
import FitCircleCore
import FitCircleDelivery
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// What the links in an email do, through the HTTP API and without a session (issue 8): one-click
/// unsubscribe (RFC 8058) that only the token's user and type can be unsubscribed by, the opening pixel,
/// tracked links that lead only where the email said; the email preferences; push falling back to email.
struct EmailLinkTests {
    /// The path and query of one of the email's own URLs.
    static func field(_ response: TestResponse) throws -> String? {
        try response.problem().fields.first
    }

    /// Sends a weekly digest to Ana (an optional type, so it carries an unsubscribe link) and answers its email.
    static func digest(_ app: TestApp, _ smtp: FakeSMTP, key: String = "digest") async throws -> FakeSMTP.Received {
        _ = try await app.sendNotification("weekly_digest", key: key)
        try await app.runJobs()
        return try #require(smtp.received.last { $0.subject.hasPrefix("Your Week in Review") })
    }

    static func emailSwitch(_ app: TestApp, _ token: String, _ type: String) async throws -> Bool? {
        try await app.api(token).getEmailPreferences().ok.body.json.types.additionalProperties[type]
    }

    @Test(arguments: Backend.available)
    func anUnsubscribeLinkWorksInOneClickWithoutASessionAndOnlyForItsUserAndType(_ backend: Backend) async throws {
        try await FakeSMTP.withTestApp(backend) { app, smtp in
            let ana = try await app.onboardedUser()
            let ben = try await app.onboardedUser("ben@example.com")
            let email = try await Self.digest(app, smtp)
            let header = try #require(email.headers["List-Unsubscribe"])
            let url = try FakeSMTP.firstURL(in: header, starting: "/api/emails/unsubscribe?token=")
            let token = String(url.split(separator: "=", maxSplits: 1)[1])

            // The page asks; it changes nothing (mail scanners follow links).
            let page = try await app.request(.get, FakeSMTP.path(of: url))
            #expect(page.status == .ok && page.headers[.contentType]?.hasPrefix("text/html") == true)
            // Like every page of the server's: a Content-Security-Policy, never framed, no sniffing (issue 41).
            #expect(page.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
            #expect(
                page.headers[HTTPField.Name("X-Frame-Options")!] == "DENY"
                    && page.headers[.xContentTypeOptions] == "nosniff"
            )
            #expect(
                page.text.contains("Stop “Week in review” emails to <b>ana@example.com</b>?")
                    && page.text.contains("method=\"post\"")
            )
            #expect(try await Self.emailSwitch(app, ana, "weekly_digest") == true)

            // A forged token, and Ana's claims signed over as if for Ben, are refused and change nothing.
            let parts = token.split(separator: ".").map(String.init)
            let payload = try #require(Data(base64URLEncoded: parts[0]))
            var claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
            claims["u"] = try await app.devSignIn("ben@example.com").user.id
            let turned = try JSONSerialization.data(withJSONObject: claims).base64URLEncoded() + "." + parts[1]
            for forged in [parts[0] + "." + String(parts[1].reversed()), turned, "not-a-token"] {
                let refused = try await app.request(.post, "/api/emails/unsubscribe?token=\(forged)")
                let field = try Self.field(refused)
                #expect(refused.status == .unprocessableContent && field == "token", "\(refused.text)")
                #expect(
                    (try await app.request(.get, "/api/emails/unsubscribe?token=\(forged)")).status
                        == .unprocessableContent
                )
            }
            #expect(try await Self.emailSwitch(app, ana, "weekly_digest") == true)
            #expect(try await Self.emailSwitch(app, ben, "weekly_digest") == true)

            // One click, as a mail client posts it: no session, the RFC 8058 body.
            let done = try await app.request(
                .post,
                FakeSMTP.path(of: url),
                body: Data("List-Unsubscribe=One-Click".utf8),
                headers: [.contentType: "application/x-www-form-urlencoded"]
            )
            #expect(done.status == .ok && done.text.contains("no more “Week in review” emails"), "\(done.text)")
            #expect(try await Self.emailSwitch(app, ana, "weekly_digest") == false)
            #expect(try await Self.emailSwitch(app, ana, "monthly_report") == true)
            #expect(try await Self.emailSwitch(app, ben, "weekly_digest") == true)
            #expect((try await app.request(.post, FakeSMTP.path(of: url))).status == .ok)  // twice is harmless

            // The next digest goes nowhere by email.
            let before = smtp.received.count
            _ = try await app.sendNotification("weekly_digest", key: "next")
            try await app.runJobs()
            #expect(smtp.received.count == before)
        }
    }

    @Test(arguments: Backend.available)
    func theOpeningPixelAndTrackedLinksAreRecordedAndLeadOnlyWhereTheEmailSaid(_ backend: Backend) async throws {
        try await FakeSMTP.withTestApp(backend) { app, smtp in
            _ = try await app.onboardedUser()
            let email = try await Self.digest(app, smtp)
            let html = try email.part("text/html")
            let id = NotificationRecord.ID(String(email.messageId.dropFirst().prefix { $0 != "@" }))
            #expect(try await app.store.read { tx in try await tx.deliveries.emailLogEntry(of: id) }?.openedAt == nil)

            let pixel = try await app.request(
                .get,
                FakeSMTP.path(of: try FakeSMTP.firstURL(in: html, starting: "/api/emails/open/"))
            )
            #expect(
                pixel.status == .ok && pixel.headers[.contentType] == "image/gif"
                    && String(buffer: pixel.body).hasPrefix("GIF89a")
            )
            let opened = try #require(try await app.store.read { tx in try await tx.deliveries.emailLogEntry(of: id) })
            #expect(opened.openedAt == app.clock.now && opened.openCount == 1)

            let click = try await app.request(
                .get,
                FakeSMTP.path(of: try FakeSMTP.firstURL(in: html, starting: "/api/emails/click/"))
            )
            #expect(click.status == .found && click.headers[.location] == "fitcircle://digest", "\(click.headers)")
            #expect(try await app.store.read { tx in try await tx.deliveries.emailLogEntry(of: id) }?.clickCount == 1)

            // No open redirect: a link number the email never had, signed with the server's own key, leads
            // nowhere; a forged token or an unsubscribe token is no link at all.
            let secret = try await app.store.transaction { tx in
                try await tx.secrets.secret(named: "email-link-hmac", orCreate: { "unused" }, at: app.clock.now)
            }
            let links = EmailLinks(secret: Data(secret.utf8))
            #expect(
                (try await app.request(.get, "/api/emails/click/\(links.token(.click(notification: id, index: 1)))"))
                    .status == .notFound
            )
            let unsubscribe = links.token(
                .unsubscribe(user: User.ID(try await app.devSignIn().user.id), type: "weekly_digest")
            )
            for forged in [
                unsubscribe,
                EmailLinks(secret: Data(repeating: 1, count: 48)).token(.click(notification: id, index: 0)),
            ] {
                let refused = try await app.request(.get, "/api/emails/click/\(forged)")
                #expect(refused.status == .unprocessableContent && refused.headers[.location] == nil)
            }
            // A pixel that is not ours is still a pixel, and records nothing.
            #expect((try await app.request(.get, "/api/emails/open/forged")).status == .ok)
            #expect(try await app.store.read { tx in try await tx.deliveries.emailLogEntry(of: id) }?.openCount == 1)
        }
    }

    @Test(arguments: Backend.available)
    func emailPreferencesMirrorTheEmailPartOfTheNotificationPreferences(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let read = try await app.api(token).getEmailPreferences().ok.body.json
            #expect(read.enabled)
            #expect(
                read.types.additionalProperties.keys.sorted() == [
                    "challenge_milestone_email", "circle_invitation", "daily_checkin_email", "monthly_report",
                    "streak_at_risk", "weekly_digest", "welcome",
                ]
            )
            #expect(
                read.required.sorted() == [
                    "challenge_milestone_email", "circle_invitation", "welcome",
                ]
            )

            let put = try await app.request(
                .put,
                "/api/emails/preferences",
                token: token,
                json: ["types": ["monthly_report": false]]
            )
            let putTypes = try put.decoded(as: Components.Schemas.EmailPreferences.self).types.additionalProperties
            #expect(put.status == .ok && putTypes["monthly_report"] == false)
            let notifications = try await app.api(token).getNotificationPreferences().ok.body.json
            let monthly = notifications.types.first { $0._type == "monthly_report" }
            #expect(monthly?.channels.email == false, "\(String(describing: monthly))")

            for (body, field) in [
                (["types": ["welcome": false]], "types.welcome.email"),
                (["types": ["leaderboard_change": false]], "types.leaderboard_change"),
            ] as [([String: Any], String)] {
                let refused = try await app.request(.put, "/api/emails/preferences", token: token, json: body)
                let named = try Self.field(refused)
                #expect(refused.status == .unprocessableContent && named == field, "\(refused.text)")
            }
            let off = try await app.request(.put, "/api/emails/preferences", token: token, json: ["enabled": false])
            #expect(try off.decoded(as: Components.Schemas.EmailPreferences.self).enabled == false)
            #expect(try await app.api(token).getNotificationPreferences().ok.body.json.email == false)
            #expect(try await Self.emailSwitch(app, token, "monthly_report") == false)
        }
    }

    /// Spec 000: email is the fallback for push. A push no device took, nor ever will, goes by email when
    /// its type allows; one that does not allow it stays undelivered.
    @Test(arguments: Backend.available)
    func aPushThatFailsForGoodFallsBackToEmailWhenItsTypeAllows(_ backend: Backend) async throws {
        let clock = TestClock()
        try await FakeFCM.run(now: { clock.now }) { fcm in
            try await FakeSMTP.run { smtp in
                let transports = Transports(
                    fcm: try await FCMTransport(
                        account: fcm.account,
                        baseURL: fcm.baseURL,
                        http: .shared,
                        clock: clock.wallClock
                    ),
                    email: EmailChannel(
                        transport: try SMTPTransport(settings: smtp.settings(), clock: clock.wallClock),
                        settings: EmailSettings(
                            from: Mailbox("hello@fitcircle.test", name: "FitCircle"),
                            publicURL: FakeSMTP.publicURL
                        )
                    )
                )
                try await withTestApp(backend, clock: clock, transports: transports) { app async throws in
                    let token = try await app.onboardedUser()
                    try await app.runJobs()  // the welcome email
                    _ = try await app.request(
                        .post,
                        "/api/notifications/register",
                        token: token,
                        json: ["platform": "android", "token": "android-1"]
                    )
                    fcm.script("android-1", [FakeFCM.Answer(404, "UNREGISTERED"), FakeFCM.Answer(404, "UNREGISTERED")])
                    // The operator who sends gets a welcome of their own: count Ana's mail.
                    let anas = { smtp.received.filter { $0.rcptTos == ["ana@example.com"] } }
                    let before = anas().count

                    let risk = try await app.sendNotification("streak_at_risk", key: "risk").id
                    try await app.runJobs()
                    let attempts = try await app.deliveryAttempts(of: risk)
                    #expect(
                        attempts.map { "\($0.channel.rawValue) \($0.outcome)" }.sorted() == [
                            "email delivered", "push target_dead",
                        ]
                    )
                    #expect(anas().count == before + 1, "\(anas().map(\.subject))")
                    #expect(anas().last?.subject == "⚠️ Your 14-day streak is at risk!")

                    // Another device, another dead token: a type without the fallback gets no email.
                    _ = try await app.request(
                        .post,
                        "/api/notifications/register",
                        token: token,
                        json: ["platform": "android", "token": "android-2"]
                    )
                    fcm.script("android-2", [FakeFCM.Answer(404, "UNREGISTERED")])
                    let reminder = try await app.sendNotification("daily_checkin_reminder", key: "reminder").id
                    try await app.runJobs()
                    #expect(try await app.deliveryAttempts(of: reminder).map(\.outcome) == ["target_dead"])
                    #expect(anas().count == before + 1)
                }
            }
        }
    }
}
